//! The UCI_Elo table: a row from the curve (`inversion`), the table itself (`uci_elo`), and a
//! family's table before its calibration (`provisional`).

pub(super) mod inversion;
pub(super) mod provisional;
pub(super) mod uci_elo;

pub use provisional::provisional_table;
pub use uci_elo::is_builtin;
