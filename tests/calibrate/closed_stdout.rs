//! A closed stdout (`skillcal verify ... | head`) neither panics nor stops a run short of its
//! files: `println!` panicked on the broken pipe, after the games and before the report.

use std::path::Path;
use std::process::Command;

use crate::support::arena::{temp_dir, SKILLCAL};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

#[test]
fn verify_with_stdout_closed_writes_its_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("closed-stdout");
    let out = dir.join("verify");
    copy_dir(&root.join("results/families/nodes/verify"), &out);
    std::fs::remove_file(out.join("report.md")).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(SKILLCAL)
        .arg("verify")
        .arg(root.join("results/families/nodes/uci_elo_table.csv"))
        .arg("--config")
        .arg(root.join("configs/families/nodes.toml"))
        .arg("--out")
        .arg(&out)
        .arg("--rate-only")
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.join("report.md").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
