//! Lichess's speed categories, by a game's estimated duration: the base plus 40 increments
//! (lichess.org/faq#time-controls). "Blitz" here means what it means on Lichess, so a 30-minute
//! game is never read as blitz because its base is over three minutes.

use std::fmt;
use std::str::FromStr;

/// A speed category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
}

impl Speed {
    /// The category of a clock of `base` seconds and `increment` seconds a move.
    pub fn of(base: f64, increment: f64) -> Speed {
        let estimate = base + 40.0 * increment;
        if estimate < 30.0 {
            Speed::UltraBullet
        } else if estimate < 180.0 {
            Speed::Bullet
        } else if estimate < 480.0 {
            Speed::Blitz
        } else if estimate < 1500.0 {
            Speed::Rapid
        } else {
            Speed::Classical
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        })
    }
}

impl FromStr for Speed {
    type Err = String;

    fn from_str(s: &str) -> Result<Speed, String> {
        match s {
            "ultrabullet" => Ok(Speed::UltraBullet),
            "bullet" => Ok(Speed::Bullet),
            "blitz" => Ok(Speed::Blitz),
            "rapid" => Ok(Speed::Rapid),
            "classical" => Ok(Speed::Classical),
            _ => Err(format!(
                "speed `{s}`: expected ultrabullet, bullet, blitz, rapid or classical"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_follow_lichess_estimate_of_base_plus_forty_increments() {
        assert_eq!(Speed::of(15.0, 0.0), Speed::UltraBullet);
        assert_eq!(Speed::of(60.0, 0.0), Speed::Bullet);
        assert_eq!(Speed::of(120.0, 1.0), Speed::Bullet);
        assert_eq!(Speed::of(120.0, 2.0), Speed::Blitz);
        assert_eq!(Speed::of(180.0, 0.0), Speed::Blitz);
        assert_eq!(Speed::of(300.0, 3.0), Speed::Blitz);
        assert_eq!(Speed::of(480.0, 0.0), Speed::Rapid);
        assert_eq!(Speed::of(600.0, 0.0), Speed::Rapid);
        assert_eq!(Speed::of(1800.0, 0.0), Speed::Classical);
        assert_eq!("blitz".parse::<Speed>(), Ok(Speed::Blitz));
        assert!("fast".parse::<Speed>().unwrap_err().contains("`fast`"));
    }
}
