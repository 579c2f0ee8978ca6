//! The `collide-compare-plinko` section of `docs/performance.md`: the plinko board's table
//! and how to read it.

use std::fmt::Write as _;

use crate::plinko::{self, Board};
use crate::{
    doc, fmt_energy, fmt_events, markdown_header, opt, rapier_clamp_text, rapier_tiles_text,
    row_cells, Row, RunArgs,
};

/// The section's text.
pub fn markdown(
    args: &RunArgs,
    rows: &[Row],
    m: &doc::Machine,
    load_end: &str,
    rapier: &str,
) -> String {
    let mut s = markdown_header(
        args,
        "collide vs rapier2d under gravity: the plinko board",
        m,
        load_end,
        rapier,
    );
    let _ = writeln!(
        s,
        "| N balls | board (cells) | spawn speed (units/s) | steps | collide ms/step | rapier2d ms/step | rapier / collide | collide contact events per ball-step | energy change collide | energy change rapier | overlapping pairs collide | overlapping pairs rapier | tunneled collide | tunneled rapier | embedded collide | embedded rapier |"
    );
    let _ = writeln!(s, "|{}", "---|".repeat(16));
    for r in rows {
        let [ms_c, ms_r, rest @ ..] = row_cells(r);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {ms_c} | {ms_r} | {} | {} | {} |",
            r.cfg.balls,
            r.layout.replace('x', " × "),
            r.cfg.speed,
            r.collide.steps,
            opt(r.ratio(), |x| format!("**{x:.1}x**")),
            fmt_events(&r.collide),
            rest.join(" | "),
        );
    }
    let _ = writeln!(s);
    let failures: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            r.rapier_failures
                .iter()
                .map(move |f| format!("- {} balls: {f}", r.cfg.balls))
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(
            s,
            "rapier2d panicked in this run (each such attempt was discarded and rapier \
             started again from the same start state; a `-` in the table means every attempt \
             panicked):\n"
        );
        for f in failures {
            let _ = writeln!(s, "{f}");
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "In this run:\n");
    for r in rows {
        let c = &r.collide;
        let speed = opt(r.ratio(), |x| {
            if x >= 1.0 {
                format!("collide is {x:.1}x as fast as rapier2d")
            } else {
                format!("collide is {:.1}x as slow as rapier2d", 1.0 / x)
            }
        });
        let limits = match c.iteration_limits {
            Some(n) if n > 0 => format!(", and hit its event bound in {n} steps"),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "- {} balls, {} steps: {speed}; collide ends with {} overlapping pairs, {} tunneled \
             and {} embedded balls, an energy change of {} and {} contact events per ball-step \
             over the run{}{limits}{}.",
            r.cfg.balls,
            c.steps,
            c.overlaps,
            c.tunneled,
            c.embedded,
            fmt_energy(c.energy_rel_change()),
            fmt_events(c),
            c.events_first_last.map_or(String::new(), |(f, l)| format!(
                " ({f:.3} in the first {b} steps, {l:.3} in the last {b})",
                b = args.block.min(c.steps)
            )),
            r.rapier.as_ref().map_or(String::new(), |x| format!(
                "; rapier2d with {} overlapping pairs, {} tunneled and {} embedded balls and an \
                 energy change of {}",
                x.overlaps,
                x.tunneled,
                x.embedded,
                fmt_energy(x.energy_rel_change())
            )),
        );
    }
    let _ = writeln!(s);
    let boards: Vec<String> = rows
        .iter()
        .map(|r| {
            let b = Board::for_balls(r.cfg.balls);
            let band = b.band();
            let packing = r.cfg.balls as f64 * std::f64::consts::PI * plinko::BALL_RADIUS.powi(2)
                / plinko::area(band);
            format!(
                "{} balls: {}, {} peg rows, {} solid cells, spawn band [{}, {}] × [{}, {}] \
                 (balls cover {:.0} % of it)",
                r.cfg.balls,
                b.describe(),
                b.peg_rows(),
                b.solid_cells(),
                band.min.x,
                band.max.x,
                band.min.y,
                band.max.y,
                100.0 * packing
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "How to read it:\n\n\
         - Scene (`bench/compare/src/plinko.rs`): `scenes/plinko.toml`'s layout on a grid of \
         8-unit cells sized for N balls: four closed walls, single-cell pegs in staggered rows \
         every 4 cells (6 cells apart, each row shifted by 3), bins with one-cell dividers 6 \
         cells apart at the bottom, every vertical length of the 60 × 80 shipped board scaled \
         with its width; the smallest such board whose spawn band at the top holds the N balls \
         (radius 2, density 1) at a packing fraction of at most 0.2 ({boards}). Balls are \
         spawned without overlap at the spawn speed in random directions (seed {seed}); \
         gravity (0, 981) units/s² (y down), restitution 1, ball-ball collisions on, \
         dt = 1/60 s. With restitution 1 nothing comes to rest: a ball that reaches the bins \
         bounces back up as high as it fell from, so the board turns into a hot elastic gas. \
         collide's event rate is high while the balls jostle in the packed spawn band, lowest \
         once they have spread out in the fall, and climbs again as the gas fills the bins and \
         the board (the first and last blocks above; `--progress` prints every block).\n\
         - Both engines start from the same state: rapier's balls are made from the collide \
         world's balls (centre, velocity, radius, mass `π r²`). Each engine's step call is \
         timed alone (median over the steps); the two engines take turns, {block} steps each, \
         so that both see the same machine load (each keeps its own world: the results are \
         those of two separate runs).\n\
         - rapier2d settings: {tiles}; the world box is four fixed cuboids; gravity (0, 981); \
         restitution 1 combined with `Max`, friction 0, CCD enabled and sleeping disabled on \
         every ball, default solver parameters (length unit 1, 4 iterations, 1 CCD substep), \
         {clamp}; no `parallel` feature (one thread).\n\
         - Contact events per ball-step: collide's contacts of kinds `ball_tile`, `ball_wall`, `ball_ball` \
         and `ball_rect` (`Event::Contact`) of every step, summed over the run and divided by N × steps.\n\
         - Energy: `E = Σ ½ m |v|² − m g·p` (kinetic plus potential, `p` the centre; collide's \
         `World::energy`), computed the same way from both engines' balls. Energy change: \
         `(E_end − E_start) / (E_start − E_floor)`, where `E_floor` is the potential energy of \
         every ball on the floor (y = board height): the change relative to the mechanical \
         energy above the floor. Overlapping pairs: centres closer than `r1 + r2 − 1e-6` at \
         the end. Tunneled: centre inside a solid cell or outside the world box at the end. \
         Embedded: centre closer than `r − 1e-6` to a solid cell at the end (collide's \
         `embedded`).",
        boards = boards.join("; "),
        seed = args.seed,
        block = args.block,
        tiles = rapier_tiles_text(args, plinko::CELL),
        clamp = rapier_clamp_text(args),
    );
    s
}
