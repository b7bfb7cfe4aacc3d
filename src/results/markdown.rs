//! Text for a Markdown table cell, shared by every report that writes tables.

/// `s` made safe for one Markdown table cell: a `|` would end the cell (an engine named
/// `a|b` shifted every column after it), a line break the row.
pub fn md_cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_or_line_break_stays_inside_its_cell() {
        assert_eq!(md_cell("sf|15"), "sf\\|15");
        assert_eq!(md_cell("a\nb"), "a b");
        assert_eq!(md_cell("plain"), "plain");
    }
}
