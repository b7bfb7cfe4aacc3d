//! Fits of a run's games: the curve (the configured form, or with `select_form` or while that
//! is not increasing the increasing form that fits best), every tested setting rated on its own, and the pool's
//! current estimates.

use super::players::{players, pool_evidence, without_retired, Players};
use crate::calibrate::config::{CalibrationConfig, KnotPlacement, ModelKind, SelfPlayScale};
use crate::calibrate::error::Result;
use crate::calibrate::fit::fit_run;
use crate::calibrate::fit::{self, CurveFit, FitError, PlayerStats, Role, Stretch, WEAK_SD};
use crate::calibrate::fit::{active, monotone, spline};
use crate::rating::problem::Cell;
use crate::results::GameRow;

/// Fits of all games so far: the curve and the per-setting ratings.
pub struct Analysis {
    pub players: Players,
    pub stats: Vec<PlayerStats>,
    pub curve: Option<CurveFit>,
    pub points: Option<CurveFit>,
    pub notes: Vec<String>,
}

pub fn analyse(cfg: &CalibrationConfig, games: &[GameRow]) -> Result<Analysis> {
    let (games, left_out) = without_retired(cfg, games);
    let games = &games[..];
    let players = players(cfg, games);
    let (tallies, stats) = fit::tally_games(games, &players.index)?;
    let evidence = pool_evidence(cfg, &players.index);
    let mut notes: Vec<String> = left_out.into_iter().collect();
    let has_subject = players.roles.iter().any(|r| matches!(r, Role::Subject(_)));
    let free: Vec<Role> = players
        .roles
        .iter()
        .map(|r| match r {
            Role::Subject(_) => Role::Free,
            other => other.clone(),
        })
        .collect();
    let fitter = Fitter {
        cfg,
        roles: &players.roles,
        tested: players
            .roles
            .iter()
            .zip(&stats)
            .filter_map(|(r, s)| match r {
                Role::Subject(t) => Some((*t, s.games as f64)),
                _ => None,
            })
            .collect(),
        setting_t: players
            .roles
            .iter()
            .map(|r| match r {
                Role::Subject(t) => Some(*t),
                _ => None,
            })
            .collect(),
        tallies: &tallies,
        evidence: &evidence,
    };
    let stretch = fitter.stretch(has_subject, &mut notes);
    let points = if has_subject {
        fitter.run(&free, ModelKind::Linear.into(), stretch).ok()
    } else {
        None
    };
    let curve = if has_subject {
        fitter.curve(points.as_ref(), stretch, &mut notes)
    } else {
        None
    };
    if let Some(c) = &curve {
        if c.weak_prior {
            notes.push(format!(
                "a tested setting scored 100% or 0%, so the curve was held finite by a weak prior \
                 (SD {WEAK_SD:.0} Elo) at each tested setting, as `rate` holds such players: \
                 where no game was lost or won the curve says little"
            ));
        }
        if !c.monotone(cfg.plan.t_min) {
            notes.push("the fitted curve is not increasing: no table can be inverted yet".into());
        }
    }
    Ok(Analysis {
        players,
        stats,
        curve,
        points,
        notes,
    })
}

/// One run's games ready to fit under any curve form and self-play scale.
struct Fitter<'a> {
    cfg: &'a CalibrationConfig,
    roles: &'a [Role],
    /// Each tested setting and its games (where a data-placed spline puts its knots).
    tested: Vec<(f64, f64)>,
    /// Each role's setting, if a subject.
    setting_t: Vec<Option<f64>>,
    tallies: &'a [Cell],
    evidence: &'a [Cell],
}

impl Fitter<'_> {
    /// The spline with `n` knots, placed as the config says.
    fn spline_with(&self, n: usize) -> fit::Curve {
        let mut c = fit::Curve::new(ModelKind::Spline, self.cfg.plan.t_min, n);
        if self.cfg.fit.knots_at == KnotPlacement::Data {
            if let Some(k) = spline::data_knots(&self.tested, n) {
                c.knots = k;
            }
        }
        c
    }

    /// The monotone form on `n` knots: the spline's interior knots, its ends at the path's.
    fn monotone_with(&self, n: usize) -> fit::Curve {
        let t_min = self.cfg.plan.t_min;
        let mut c = fit::Curve::new(ModelKind::Monotone, t_min, n);
        c.knots = monotone::knots(&self.spline_with(n).knots, t_min);
        c
    }

    fn form(&self, m: ModelKind) -> fit::Curve {
        match m {
            ModelKind::Spline => self.spline_with(self.cfg.fit.n_knots()),
            ModelKind::Monotone => self.monotone_with(self.cfg.fit.n_knots()),
            m => fit::Curve::new(m, self.cfg.plan.t_min, self.cfg.fit.n_knots()),
        }
    }

    /// The spline's other knot counts, tried when the configured spline fails or is not
    /// increasing; empty for the other forms.
    fn other_knots(&self) -> Vec<usize> {
        if self.cfg.fit.model == ModelKind::Spline {
            let n = self.cfg.fit.n_knots();
            spline::KNOTS_RANGE.filter(|&k| k != n).collect()
        } else {
            Vec::new()
        }
    }

    fn run(&self, roles: &[Role], model: fit::Curve, stretch: Stretch) -> FitResult {
        let fit = |c: fit::Curve| {
            fit_run(
                &self.cfg.run_pool(),
                roles,
                &self.setting_t,
                self.tallies,
                self.evidence,
                c,
                stretch,
            )
        };
        if model.kind == ModelKind::Monotone && roles.iter().any(|r| matches!(r, Role::Subject(_)))
        {
            active::fit_active(&model, fit)
        } else {
            fit(model)
        }
    }

    /// The self-play scale that fits the games best under the curve form `c`.
    fn profile(&self, c: &fit::Curve, scale: SelfPlayScale) -> Option<Stretch> {
        let loglik = |s: Stretch| self.run(self.roles, c.clone(), s).ok().map(|f| f.loglik);
        if scale == SelfPlayScale::Fit {
            fit::profile(|k| loglik(Stretch::flat(k))).map(Stretch::flat)
        } else {
            fit::profile_by_t(loglik)
        }
    }

    /// The self-play scale as configured: fixed, or profiled (a note says which and what).
    fn stretch(&self, has_subject: bool, notes: &mut Vec<String>) -> Stretch {
        let cfg = self.cfg;
        let scale = match cfg.fit.self_play_scale {
            SelfPlayScale::Fixed(k) => return Stretch::flat(k),
            SelfPlayScale::Fit | SelfPlayScale::FitByT if !has_subject => return Stretch::ONE,
            scale => scale,
        };
        // A configured form that does not converge leaves no profile; kappa 1 in its place
        // moved the first range run's weak settings 150-200 Elo, so the nearest forms that do
        // converge are tried: the spline's neighbouring knot counts, then the cubic,
        // quadratic and linear forms.
        let mut nearest = self.other_knots();
        nearest.sort_by_key(|&k| (k.abs_diff(cfg.fit.n_knots()), k));
        let mut others: Vec<(String, fit::Curve)> = nearest
            .into_iter()
            .map(|k| (format!("spline with {k} knots"), self.spline_with(k)))
            .collect();
        others.extend(
            ModelKind::ALL
                .into_iter()
                .rev()
                .filter(|&m| m != cfg.fit.model && m != ModelKind::Spline)
                .map(|m| (m.name().to_string(), self.form(m))),
        );
        let fitted = self.profile(&self.form(cfg.fit.model), scale).or_else(|| {
            others.iter().find_map(|(name, c)| {
                let s = self.profile(c, scale)?;
                notes.push(format!(
                    "self-play scale: the {} fit did not converge, so kappa is profiled with the {name} form",
                    cfg.fit.model.name()
                ));
                Some(s)
            })
        });
        match fitted {
            Some(s) if s.slope == 0.0 => {
                notes.push(format!(
                    "games between the run's settings stretch rating differences by kappa = {:.2} (fitted: fit.self_play_scale = \"fit\")",
                    s.kappa
                ));
                s
            }
            Some(s) => {
                notes.push(format!(
                    "games between the run's settings stretch rating differences by kappa = {:.2} at t = {} times exp({:.2} (t - {})), t the pair's mean: {:.2} at t = 0, {:.2} at t = 1 (fitted: fit.self_play_scale = \"fit-by-t\")",
                    s.kappa,
                    fit::PIVOT,
                    s.slope,
                    fit::PIVOT,
                    s.at(0.0, 0.0),
                    s.at(1.0, 1.0)
                ));
                s
            }
            None => {
                notes.push("self-play scale: the profile fit failed; kappa = 1".into());
                Stretch::ONE
            }
        }
    }

    /// The curve: the configured form when it fits and is increasing (and `select_form` is
    /// off), else the increasing form that fits the tested settings (`points`) best.
    fn curve(
        &self,
        points: Option<&CurveFit>,
        stretch: Stretch,
        notes: &mut Vec<String>,
    ) -> Option<CurveFit> {
        let cfg = self.cfg;
        let t_min = cfg.plan.t_min;
        let select = cfg.fit.select_form;
        let first = self.run(self.roles, self.form(cfg.fit.model), stretch);
        let why = match &first {
            _ if select => "form selection (select_form)".to_string(),
            Ok(f) if !f.monotone(t_min) => format!(
                "the {} curve is not increasing on the whole path",
                cfg.fit.model.name()
            ),
            // no reason to look further: the configured form fitted and is increasing
            Ok(_) => return first.ok(),
            Err(e) => format!("the {} fit failed ({e:#})", cfg.fit.model.name()),
        };
        // Of the increasing forms, the one that fits the tested settings best: the
        // next simpler form alone can miss them by hundreds of Elo. With `select_form`,
        // always so. A spline that is not increasing is tried with the other knot counts
        // too: the polynomials alone can miss a path's middle settings as far.
        let mut candidates: Vec<(String, fit::Curve)> = ModelKind::ALL
            .into_iter()
            .filter(|&m| select || m != cfg.fit.model)
            .map(|m| (m.name().to_string(), self.form(m)))
            .collect();
        if !select {
            // (a spline that does not converge, too)
            candidates.extend(
                self.other_knots()
                    .into_iter()
                    .map(|n| (format!("spline with {n} knots"), self.spline_with(n))),
            );
        }
        // The monotone form, increasing by construction, on every knot count (with
        // `select_form` on the configured one): where the path is flat over a stretch every
        // spline may dip and the polynomials miss it.
        let n = cfg.fit.n_knots();
        for k in spline::KNOTS_RANGE {
            let configured = k == n && cfg.fit.model == ModelKind::Monotone;
            if (select && k == n) || (!select && !configured) {
                candidates.push((format!("monotone with {k} knots"), self.monotone_with(k)));
            }
        }
        let mut best: Option<(f64, CurveFit, String)> = None;
        let mut scores = Vec::new();
        for (name, c) in candidates {
            let Ok(g) = self.run(self.roles, c, stretch) else {
                scores.push(format!("{name} not fitted"));
                continue;
            };
            if !g.monotone(t_min) {
                scores.push(format!("{name} not increasing"));
                continue;
            }
            let chi2 = points.map_or(0.0, |p| residual_chi2(self.roles, p, &g));
            // Akaike's penalty: 2 per coefficient
            let score = chi2 + 2.0 * g.theta.len() as f64;
            scores.push(format!("{name} {chi2:.1}"));
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, g, name));
            }
        }
        match best {
            Some((_, g, used)) => {
                notes.push(format!(
                    "{why}; the {used} form is used: of the increasing forms it fits the tested settings best (residual chi-square plus 2 per coefficient; chi-square {})",
                    scores.join(", ")
                ));
                Some(g)
            }
            None => match first {
                Ok(f) => Some(f),
                Err(e) => {
                    notes.push(format!("curve fit failed: {e:#}"));
                    None
                }
            },
        }
    }
}

type FitResult = std::result::Result<CurveFit, FitError>;

/// Residual chi-square of the tested settings, each rated on its own in `points`, against `curve`.
fn residual_chi2(roles: &[Role], points: &CurveFit, curve: &CurveFit) -> f64 {
    roles
        .iter()
        .zip(&points.players)
        .filter_map(|(r, p)| match r {
            Role::Subject(t) => Some(fit::residual_z(p, curve, *t)),
            _ => None,
        })
        .filter(|z| z.is_finite())
        .map(|z| z * z)
        .sum()
}

/// Current rating of each pool member for planning: fitted when the fit has one, else the
/// pool file's measured rating, else the anchor; an unanchored member without games (here or in
/// the pool file) has none (its fitted value is only the prior). Before a run's first game
/// there is no fit, and a measured pool's members are where the pool file puts them: the
/// unanchored ones too, which the first batch of a run reaching below the anchors needs.
pub(in crate::calibrate) fn pool_estimates(
    cfg: &CalibrationConfig,
    a: &Analysis,
) -> Vec<Option<f64>> {
    (0..cfg.pool.members.len())
        .map(|j| {
            let m = &cfg.pool.members[j];
            let measured = cfg
                .pool_pairs
                .iter()
                .any(|p| p.games > 0 && (p.a == m.name || p.b == m.name));
            if m.elo.is_none() && !measured && a.stats.get(j).is_none_or(|s| s.games == 0) {
                return None;
            }
            match (&a.curve, &a.points) {
                (Some(f), _) | (None, Some(f)) => Some(f.players[j].elo),
                _ => cfg.measured_elo(&m.name).or(m.elo),
            }
        })
        .collect()
}
