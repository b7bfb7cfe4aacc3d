//! The pool held at its measured ratings (`pool.hold`): a two-step estimate.
//!
//! Step 1 rates the pool members from the pool file's games and their anchors alone:
//! r^ with covariance S. Step 2 fits this run's players (the curve, free settings) with the
//! members fixed at r^. Their uncertainty is carried into step 2 by the implicit function of
//! its optimum: with I the information of this run's games at (theta^, r^) (blocks I_tt,
//! I_tr), the optimum moves by d theta = J dr, J = -I_tt^-1 I_tr, so
//!     Cov(theta) = I_tt^-1 + J S J^T,  Cov(theta, r) = J S,  Cov(r) = S
//! (Murphy and Topel, "Estimation and Inference in Two-Step Econometric Models", 1985).
//!
//! Why: a joint fit lets the run's games re-measure the members. Where the subject's weakening
//! sees the pool's spacing differently from the pool's own ladder (a run's weak settings may put a
//! weak member hundreds of Elo from its pool rating), the table's low rows then sit on the run's spacing while a verification reads them on the pool
//! file's. Holding puts both on the pool file's scale; the disagreement stays visible as the
//! curve's residuals instead of moving the scale.

use nalgebra::{DMatrix, DVector};

use super::covariance::HeldParts;
use super::curve::{
    anchor_center, curve_problem, curve_problem_at, estimate_dispersion, solve_curve, Curve,
    CurveFit, FitError, PlayerFit, Role,
};
use super::self_play::{self, Among, Stretch};
use crate::rating::problem::{Cell, Linear};

/// The members' ratings and covariance as a pool file measured them, indexed like the roles
/// (the held members come first): held there exactly, instead of refitting its games here.
#[derive(Debug, Clone)]
pub struct MeasuredPool {
    pub elo: Vec<f64>,
    pub cov: DMatrix<f64>,
}

/// The parameter each role owns alone in a problem's layout (`None`: fixed or on the curve).
fn own_params(players: &[Linear], roles: &[Role]) -> Vec<Option<usize>> {
    players
        .iter()
        .zip(roles)
        .map(|(p, r)| match (r, p.terms.as_slice()) {
            (Role::Subject(_), _) => None,
            (_, [(k, _)]) => Some(*k),
            _ => None,
        })
        .collect()
}

/// Fits `roles` from `cells` with the roles marked in `held` (pool members) at their ratings
/// from `given` (a pool file's own), else from `evidence` and their priors alone, their
/// uncertainty carried into the others'. The
/// result has the layout of [`super::curve::fit_with`] (theta, then every own parameter).
pub fn fit_held(
    roles: &[Role],
    held: &[bool],
    cells: &[Cell],
    evidence: &[Cell],
    model: impl Into<Curve>,
    among: Option<&Among>,
    given: Option<&MeasuredPool>,
) -> Result<CurveFit, FitError> {
    let curve = model.into();
    // the weak priors of unanchored players where the joint fit puts them
    let center = anchor_center(roles)?;
    let Members {
        r_hat,
        cov: pool_cov,
        own: pool_own,
        elo: member_elo,
    } = measure_members(roles, held, evidence, &curve, center, given)?;

    // Step 2: the run's players with the members fixed.
    let run_roles: Vec<Role> = roles
        .iter()
        .zip(held)
        .zip(&member_elo)
        .map(|((r, &h), &elo)| {
            if h {
                Role::Anchored { mean: elo, sd: 0.0 }
            } else {
                r.clone()
            }
        })
        .collect();
    let (mut run, n_theta, init) = curve_problem_at(&run_roles, cells, &curve, center)?;
    if let Some(among) = among {
        self_play::apply(&mut run, among);
    }
    let (beta, weak_prior) = solve_curve(&mut run, &run_roles, &curve, center, init)?;
    let dispersion = estimate_dispersion(&run, &beta);
    let beta = run.solve(beta, dispersion)?;
    let a = run.covariance(&beta, dispersion)?;
    let loglik = run.objective(&run.cells, &[], &beta, 1.0);
    let run_own = own_params(&run.players, roles);

    // The joint layout, its parameters from the two steps.
    let (mut joint, _, _) = curve_problem(roles, cells, &curve)?;
    joint.priors.clear();
    if let Some(among) = among {
        self_play::apply(&mut joint, among);
    }
    let n = joint.n_params;
    let joint_own = own_params(&joint.players, roles);
    // run parameter -> joint parameter: theta keeps its place, own parameters follow their role
    let mut run_to_joint: Vec<usize> = (0..run.n_params).collect();
    let mut from_pool = Vec::new();
    let mut full = DVector::zeros(n);
    full.rows_mut(0, n_theta)
        .copy_from(&beta.rows(0, n_theta).into_owned());
    for (i, jk) in joint_own.iter().enumerate() {
        let Some(jk) = *jk else { continue };
        if held[i] {
            let pk = pool_own[i].expect("a held member owns a parameter in both layouts");
            full[jk] = r_hat[pk];
            from_pool.push((pk, jk));
        } else {
            let rk = run_own[i].expect("a free player owns a parameter in both layouts");
            full[jk] = beta[rk];
            run_to_joint[rk] = jk;
        }
    }

    // Cross-information of this run's games, and the carried pool covariance.
    let info = joint.derivatives(&joint.cells, &[], &full, dispersion).1;
    joint.players.truncate(roles.len());
    let (b, sigma) = pool_blocks(&info, &from_pool, &run_to_joint, &pool_cov);
    let free: Vec<usize> = run_to_joint.clone();
    let members: Vec<usize> = from_pool.iter().map(|&(_, jk)| jk).collect();
    let parts = HeldParts::new(free, members, a, b, sigma);
    let cov = parts.covariance(n);
    let players = joint
        .players
        .iter()
        .map(|p| {
            let v = p.dense(n);
            PlayerFit {
                elo: p.eval(&full),
                sd: v.dot(&(&cov * &v)).max(0.0).sqrt(),
            }
        })
        .collect();
    Ok(CurveFit {
        curve,
        theta: full.as_slice()[..n_theta].to_vec(),
        cov_theta: cov.view((0, 0), (n_theta, n_theta)).into_owned(),
        players,
        dispersion,
        games: cells.iter().map(|c| c.n).sum(),
        loglik,
        stretch: among.map_or(Stretch::ONE, |a| a.stretch),
        ratings: joint.players,
        cov,
        held: Some(Box::new(parts)),
        weak_prior,
    })
}

/// Step 1's result: the members' parameters and their covariance, the parameter each role owns
/// in that layout, and each role's rating.
struct Members {
    r_hat: DVector<f64>,
    cov: DMatrix<f64>,
    own: Vec<Option<usize>>,
    elo: Vec<f64>,
}

/// Step 1: the members alone (every other player fixed, without games here), from the pool
/// file's ratings when `given`, else from `evidence`: their parameters, covariance, which
/// parameter each role owns, and each role's rating.
fn measure_members(
    roles: &[Role],
    held: &[bool],
    evidence: &[Cell],
    curve: &Curve,
    center: f64,
    given: Option<&MeasuredPool>,
) -> Result<Members, FitError> {
    let pool_roles: Vec<Role> = roles
        .iter()
        .zip(held)
        .map(|(r, &h)| {
            if h {
                r.clone()
            } else {
                Role::Anchored {
                    mean: center,
                    sd: 0.0,
                }
            }
        })
        .collect();
    let (mut pool, _, init) = curve_problem_at(&pool_roles, &[], curve, center)?;
    let pool_own = own_params(&pool.players, roles);
    let (r_hat, pool_cov) = match given {
        // the pool file's own ratings and covariance, as measured
        Some(g) => {
            let mut r = init;
            let mut cov = DMatrix::zeros(pool.n_params, pool.n_params);
            for (i, k) in pool_own.iter().enumerate() {
                let Some(k) = *k else { continue };
                r[k] = g.elo[i];
                for (j, l) in pool_own.iter().enumerate() {
                    if let Some(l) = *l {
                        cov[(k, l)] = g.cov[(i, j)];
                    }
                }
            }
            (r, cov)
        }
        None => {
            pool.evidence = evidence.to_vec();
            let r = pool.solve(init, 1.0)?;
            let cov = pool.covariance(&r, 1.0)?;
            (r, cov)
        }
    };
    let member_elo: Vec<f64> = pool.players.iter().map(|p| p.eval(&r_hat)).collect();
    Ok(Members {
        r_hat,
        cov: pool_cov,
        own: pool_own,
        elo: member_elo,
    })
}

/// The cross-information between the run's parameters and the members' (`b`, rows in the
/// run's layout) and the members' covariance from step 1 (`sigma`), in `from_pool`'s order
/// ((step-1 parameter, joint parameter) per member).
fn pool_blocks(
    info: &DMatrix<f64>,
    from_pool: &[(usize, usize)],
    run_to_joint: &[usize],
    pool_cov: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let s = from_pool.len();
    let m = run_to_joint.len();
    let mut b = DMatrix::zeros(m, s);
    let mut sigma = DMatrix::zeros(s, s);
    for (c, &(pk, jk)) in from_pool.iter().enumerate() {
        for r in 0..m {
            b[(r, c)] = info[(run_to_joint[r], jk)];
        }
        for (c2, &(pk2, _)) in from_pool.iter().enumerate() {
            sigma[(c, c2)] = pool_cov[(pk, pk2)];
        }
    }
    (b, sigma)
}

/// The pool as a run's fit takes it: its first `members` roles are the pool's members, held at
/// the pool file when `hold` (at `measured`, its ratings and covariance, when the file has them),
/// else re-measured by the run's games too.
#[derive(Clone, Debug)]
pub struct RunPool {
    pub members: usize,
    pub hold: bool,
    pub measured: Option<MeasuredPool>,
}

/// A run's fit: the members held or re-measured as `pool` says; games between two of the others
/// (the run's settings, at `setting_t`) stretched by `stretch` unless it is one.
pub fn fit_run(
    pool: &RunPool,
    roles: &[Role],
    setting_t: &[Option<f64>],
    cells: &[Cell],
    evidence: &[Cell],
    model: impl Into<Curve>,
    stretch: Stretch,
) -> Result<CurveFit, FitError> {
    let members = pool.members;
    let among = (!stretch.is_one()).then(|| Among {
        t: (0..roles.len())
            .map(|i| {
                if i < members {
                    None
                } else {
                    setting_t.get(i).copied().flatten()
                }
            })
            .collect(),
        stretch,
    });
    if pool.hold {
        let held: Vec<bool> = (0..roles.len()).map(|i| i < members).collect();
        fit_held(
            roles,
            &held,
            cells,
            evidence,
            model,
            among.as_ref(),
            pool.measured.as_ref(),
        )
    } else {
        super::curve::fit_among(roles, cells, evidence, model, among.as_ref())
    }
}
