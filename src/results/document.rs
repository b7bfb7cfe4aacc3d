//! The one document model of every page a folder holds (a run's report, the pool's, analyse's):
//! headings, paragraphs, tables, figures and verbatim text, rendered once to Markdown (figures
//! linked) and once to self-contained HTML (SVGs inlined). It lives with the folder schema so
//! that calibrate's pool page and analyse's page, which `report` may not reach, use it too.

use std::fmt::Write as _;
use std::path::Path;

use crate::fsutil::FileError;
use crate::results::error::ResultsError;
use crate::results::markdown::md_cell;

/// A matrix row: its label and cells (text, shade in [0, 1] or none).
pub type MatrixRow = (String, Vec<(String, Option<f64>)>);

/// One block of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Section(String),
    Paragraph(String),
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// An SVG file beside the report, with its caption.
    Figure {
        file: String,
        caption: String,
    },
    /// Verbatim text (a preformatted block).
    Code(String),
    /// A table whose cells carry a shade in [0, 1] (HTML colours them from red through white to
    /// green; Markdown shows the text alone).
    Matrix {
        head: Vec<String>,
        rows: Vec<MatrixRow>,
    },
}

/// A titled sequence of blocks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    pub title: String,
    pub blocks: Vec<Block>,
}

impl Document {
    pub fn section(&mut self, title: &str) {
        self.blocks.push(Block::Section(title.to_string()));
    }

    pub fn para(&mut self, text: &str) {
        self.blocks.push(Block::Paragraph(text.to_string()));
    }

    pub fn table(&mut self, head: &[&str], rows: Vec<Vec<String>>) {
        self.blocks.push(Block::Table {
            head: head.iter().map(|h| h.to_string()).collect(),
            rows,
        });
    }

    pub fn figure(&mut self, file: &str, caption: &str) {
        self.blocks.push(Block::Figure {
            file: file.to_string(),
            caption: caption.to_string(),
        });
    }

    pub fn matrix(&mut self, head: Vec<String>, rows: Vec<MatrixRow>) {
        self.blocks.push(Block::Matrix { head, rows });
    }

    pub fn code(&mut self, text: &str) {
        self.blocks.push(Block::Code(text.to_string()));
    }

    /// Markdown: figures as links to their files.
    pub fn to_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# {}\n", self.title);
        for b in &self.blocks {
            match b {
                Block::Section(t) => {
                    let _ = writeln!(md, "## {t}\n");
                }
                Block::Paragraph(t) => {
                    let _ = writeln!(md, "{t}\n");
                }
                Block::Table { head, rows } => {
                    let _ = writeln!(md, "| {} |", md_row(head.iter()));
                    let _ = writeln!(md, "|{}", " --- |".repeat(head.len()));
                    for r in rows {
                        let _ = writeln!(md, "| {} |", md_row(r.iter()));
                    }
                    md.push('\n');
                }
                Block::Figure { file, caption } => {
                    let _ = writeln!(md, "![{file}]({file})\n\n*{caption}*\n");
                }
                Block::Code(t) => {
                    let _ = writeln!(md, "```\n{t}```\n");
                }
                Block::Matrix { head, rows } => {
                    let _ = writeln!(md, "| {} |", md_row(head.iter()));
                    let _ = writeln!(md, "|{}", " --- |".repeat(head.len()));
                    for (name, cells) in rows {
                        let texts = md_row(cells.iter().map(|c| &c.0));
                        let _ = writeln!(md, "| {} | {texts} |", md_cell(name));
                    }
                    md.push('\n');
                }
            }
        }
        md
    }

    /// Self-contained HTML: each figure's SVG, read from `dir`, inlined.
    pub fn to_html(&self, dir: &Path) -> Result<String, ResultsError> {
        let mut html = String::new();
        let _ = write!(
            html,
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title><style>{}</style></head><body><h1>{}</h1>",
            esc(&self.title),
            CSS,
            esc(&self.title)
        );
        for b in &self.blocks {
            match b {
                Block::Section(t) => {
                    let _ = write!(html, "<h2>{}</h2>", esc(t));
                }
                Block::Paragraph(t) => {
                    let _ = write!(html, "<p>{}</p>", esc(t));
                }
                Block::Table { head, rows } => {
                    html.push_str("<table><tr>");
                    for h in head {
                        let _ = write!(html, "<th>{}</th>", esc(h));
                    }
                    html.push_str("</tr>");
                    for r in rows {
                        html.push_str("<tr>");
                        for c in r {
                            let _ = write!(html, "<td>{}</td>", esc(c));
                        }
                        html.push_str("</tr>");
                    }
                    html.push_str("</table>");
                }
                Block::Figure { file, caption } => {
                    let path = dir.join(file);
                    let svg = std::fs::read_to_string(&path)
                        .map_err(|source| FileError::read(&path, source))?;
                    let svg = svg.trim_start_matches(|c| c != '<');
                    let svg = if svg.starts_with("<?xml") {
                        svg.split_once("?>").map(|x| x.1).unwrap_or(svg)
                    } else {
                        svg
                    };
                    let _ = write!(
                        html,
                        "<figure>{}<figcaption>{}</figcaption></figure>",
                        svg,
                        esc(caption)
                    );
                }
                Block::Code(t) => {
                    let _ = write!(html, "<pre>{}</pre>", esc(t));
                }
                Block::Matrix { head, rows } => {
                    html.push_str("<table class=\"matrix\"><tr>");
                    for h in head {
                        let _ = write!(html, "<th>{}</th>", esc(h));
                    }
                    html.push_str("</tr>");
                    for (name, cells) in rows {
                        let _ = write!(html, "<tr><th>{}</th>", esc(name));
                        for (text, shade) in cells {
                            match shade {
                                Some(v) => {
                                    let _ = write!(
                                        html,
                                        "<td style=\"background:{}\">{}</td>",
                                        shade_colour(*v),
                                        esc(text)
                                    );
                                }
                                None => {
                                    let _ = write!(html, "<td>{}</td>", esc(text));
                                }
                            }
                        }
                        html.push_str("</tr>");
                    }
                    html.push_str("</table>");
                }
            }
        }
        html.push_str("</body></html>\n");
        Ok(html)
    }
}

const CSS: &str = "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:nth-child(2){text-align:left}figure{margin:1.5em 0}figcaption{font-size:0.9em;color:#555}pre{background:#f7f7f7;padding:0.8em;overflow-x:auto}table.matrix th:first-child{text-align:left}";

/// Red (0) through white (0.5) to green (1).
fn shade_colour(v: f64) -> String {
    let v = v.clamp(0.0, 1.0);
    let (r, g, b) = if v < 0.5 {
        let t = v / 0.5;
        (230.0 + 25.0 * t, 110.0 + 145.0 * t, 110.0 + 145.0 * t)
    } else {
        let t = (v - 0.5) / 0.5;
        (255.0 - 145.0 * t, 255.0 - 45.0 * t, 255.0 - 145.0 * t)
    };
    format!("rgb({:.0},{:.0},{:.0})", r, g, b)
}

/// A Markdown table row's cells, each escaped.
fn md_row<'a>(cells: impl Iterator<Item = &'a String>) -> String {
    cells.map(|c| md_cell(c)).collect::<Vec<_>>().join(" | ")
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns of a Markdown table row: `|` not preceded by a backslash.
    fn columns(line: &str) -> usize {
        let b = line.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
            .count()
            - 1
    }

    #[test]
    fn a_name_with_a_pipe_keeps_the_table_s_columns() {
        let mut d = Document::default();
        d.table(
            &["player", "elo"],
            vec![vec!["sf|15".into(), "1500".into()]],
        );
        d.matrix(
            vec!["".into(), "x|y".into()],
            vec![("x|y".into(), vec![("50%".into(), Some(0.5))])],
        );
        let md = d.to_markdown();
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(rows.len(), 6, "{md}");
        for r in rows {
            assert_eq!(columns(r), 2, "{r}");
        }
        assert!(md.contains("| sf\\|15 | 1500 |"), "{md}");
    }
}
