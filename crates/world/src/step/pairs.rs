//! The pair table: every (moving shape × obstacle) pair the step meets, and where its contact
//! is found. The step reaches each pair from a mover's static search (`predict.rs` on straight
//! paths, `curved.rs` on parabolas) or its pair search (`predict.rs`, `schedule.rs`); this
//! table is the one place that lists them all, in the manner of Box2D's contact registers
//! (`b2InitializeContactRegisters`): a new moving shape or obstacle adds a row here, and the
//! test below prints the matrix and fails on a pair that is missing, on a function that does
//! not exist where the table says, and on a pair that passes through without a reason.

/// The shape of a mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoverShape {
    /// A ball.
    Circle,
    /// A dynamic rectangle.
    Box,
}

/// What a mover can meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Obstacle {
    /// A solid square cell (a wall or a brick).
    Tile,
    /// A slope cell (a half tile).
    SlopeTile,
    /// A closed side of the world.
    Wall,
    /// An open side of the world (the body is lost through it).
    OpenSide,
    /// A static rectangle.
    StaticRect,
    /// A kinematic rectangle.
    KinematicRect,
    /// A sensor rectangle.
    SensorRect,
    /// A sensor cell.
    SensorCell,
    /// A static segment (or a polyline's).
    Segment,
    /// A static circle.
    Circle,
    /// A sensor circle.
    SensorCircle,
    /// A static convex polygon.
    Polygon,
    /// A flipper held at a limit.
    HeldFlipper,
    /// A turning flipper.
    TurningFlipper,
    /// A ball.
    Ball,
    /// A dynamic rectangle.
    Box,
    /// A character's box where it stands (characters move after the event loop).
    Character,
}

/// How a pair meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Meets {
    /// A contact at its exact time, found by `function` in `file` (below
    /// `crates/world/src`).
    Contact {
        file: &'static str,
        function: &'static str,
    },
    /// A sensor's enter and exit, found by `function` in `file`.
    Sensor {
        file: &'static str,
        function: &'static str,
    },
    /// Nothing, by design, for the reason given.
    Passes(&'static str),
}

use MoverShape as M;
use Obstacle as O;

const fn contact(file: &'static str, function: &'static str) -> Meets {
    Meets::Contact { file, function }
}

const fn sensor(file: &'static str, function: &'static str) -> Meets {
    Meets::Sensor { file, function }
}

/// Every pair, with where its contact is found (the straight search's function; the curved
/// one of the same file or `curved.rs` takes the same pairs under gravity).
pub(crate) const PAIRS: &[(MoverShape, Obstacle, Meets)] = &[
    (
        M::Circle,
        O::Tile,
        contact("grid/sweep.rs", "sweep_circle_kinds"),
    ),
    (
        M::Circle,
        O::SlopeTile,
        contact("grid/sweep.rs", "sweep_circle_kinds"),
    ),
    (
        M::Circle,
        O::Wall,
        contact("step/predict.rs", "ball_path_event"),
    ),
    (
        M::Circle,
        O::OpenSide,
        contact("step/contact.rs", "loss_time"),
    ),
    (
        M::Circle,
        O::StaticRect,
        contact("step/predict.rs", "ball_path_event"),
    ),
    (
        M::Circle,
        O::KinematicRect,
        contact("step/predict.rs", "ball_path_event"),
    ),
    (
        M::Circle,
        O::SensorRect,
        sensor("step/predict.rs", "ball_path_event"),
    ),
    (
        M::Circle,
        O::SensorCell,
        sensor("step/sensors.rs", "sensor_cell_hits"),
    ),
    (
        M::Circle,
        O::Segment,
        contact("body/shape.rs", "sweep_path_circle"),
    ),
    (
        M::Circle,
        O::Circle,
        contact("body/shape.rs", "sweep_path_circle"),
    ),
    (
        M::Circle,
        O::SensorCircle,
        sensor("step/shapes.rs", "shape_hits"),
    ),
    (
        M::Circle,
        O::Polygon,
        contact("body/shape.rs", "sweep_path_circle"),
    ),
    (
        M::Circle,
        O::HeldFlipper,
        contact("step/flippers.rs", "flipper_hits"),
    ),
    (
        M::Circle,
        O::TurningFlipper,
        contact("step/flippers.rs", "flipper_hits"),
    ),
    (
        M::Circle,
        O::Ball,
        contact("step/contact.rs", "ball_ball_contact"),
    ),
    (
        M::Circle,
        O::Box,
        contact("step/contact.rs", "ball_box_contact"),
    ),
    (
        M::Box,
        O::Tile,
        contact("grid/sweep.rs", "sweep_aabb_kinds"),
    ),
    (
        M::Box,
        O::SlopeTile,
        contact("grid/sweep.rs", "sweep_aabb_kinds"),
    ),
    (M::Box, O::Wall, contact("step/contact.rs", "box_wall_hits")),
    (M::Box, O::OpenSide, contact("step/contact.rs", "loss_time")),
    (
        M::Box,
        O::StaticRect,
        contact("step/predict.rs", "box_static_event"),
    ),
    (
        M::Box,
        O::KinematicRect,
        contact("step/predict.rs", "box_static_event"),
    ),
    (
        M::Box,
        O::SensorRect,
        sensor("world/rect_sensor.rs", "sense_rects"),
    ),
    (
        M::Box,
        O::SensorCell,
        Meets::Passes("sensor cells report balls (`Event::SensorEnter` names a ball)"),
    ),
    (M::Box, O::Segment, contact("body/shape.rs", "sweep_box")),
    (M::Box, O::Circle, contact("body/shape.rs", "sweep_box")),
    (
        M::Box,
        O::SensorCircle,
        Meets::Passes("sensor circles report balls (`Event::SensorEnter` names a ball)"),
    ),
    (M::Box, O::Polygon, contact("body/shape.rs", "sweep_box")),
    (
        M::Box,
        O::HeldFlipper,
        contact("step/flippers.rs", "flipper_hits"),
    ),
    (
        M::Box,
        O::TurningFlipper,
        contact("step/flippers.rs", "flipper_hits"),
    ),
    (
        M::Box,
        O::Ball,
        contact("step/contact.rs", "box_ball_contact"),
    ),
    (
        M::Box,
        O::Box,
        contact("step/contact.rs", "box_box_contact"),
    ),
    (
        M::Circle,
        O::Character,
        contact("step/character_obstacle.rs", "character_hits"),
    ),
    (
        M::Box,
        O::Character,
        contact("step/character_obstacle.rs", "box_character_hits"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    const MOVERS: [MoverShape; 2] = [M::Circle, M::Box];
    const OBSTACLES: [Obstacle; 17] = [
        O::Tile,
        O::SlopeTile,
        O::Wall,
        O::OpenSide,
        O::StaticRect,
        O::KinematicRect,
        O::SensorRect,
        O::SensorCell,
        O::Segment,
        O::Circle,
        O::SensorCircle,
        O::Polygon,
        O::HeldFlipper,
        O::TurningFlipper,
        O::Ball,
        O::Box,
        O::Character,
    ];

    fn meets(m: MoverShape, o: Obstacle) -> Vec<Meets> {
        PAIRS
            .iter()
            .filter(|(pm, po, _)| *pm == m && *po == o)
            .map(|p| p.2)
            .collect()
    }

    #[test]
    fn the_pair_table_has_no_hole() {
        // Every obstacle kind is listed (a new variant must join OBSTACLES).
        for o in OBSTACLES {
            match o {
                O::Tile
                | O::SlopeTile
                | O::Wall
                | O::OpenSide
                | O::StaticRect
                | O::KinematicRect
                | O::SensorRect
                | O::SensorCell
                | O::Segment
                | O::Circle
                | O::SensorCircle
                | O::Polygon
                | O::HeldFlipper
                | O::TurningFlipper
                | O::Ball
                | O::Box
                | O::Character => {}
            }
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut matrix = String::from("mover × obstacle: C contact, S sensor, - passes\n");
        let mut holes = Vec::new();
        for o in OBSTACLES {
            matrix.push_str(&format!("{:>15}", format!("{o:?}")));
            for m in MOVERS {
                let found = meets(m, o);
                let mark = match found.as_slice() {
                    [Meets::Contact { file, function }] | [Meets::Sensor { file, function }] => {
                        let text = std::fs::read_to_string(src.join(file))
                            .unwrap_or_else(|e| panic!("{file}: {e}"));
                        let defined = text.contains(&format!("fn {function}("))
                            || text.contains(&format!("fn {function}<"));
                        if !defined {
                            holes.push(format!("{m:?} × {o:?}: no `fn {function}` in {file}"));
                        }
                        if matches!(found[0], Meets::Contact { .. }) {
                            "C"
                        } else {
                            "S"
                        }
                    }
                    [Meets::Passes(why)] => {
                        if why.is_empty() {
                            holes.push(format!("{m:?} × {o:?}: passes with no reason"));
                        }
                        "-"
                    }
                    [] => {
                        holes.push(format!("{m:?} × {o:?}: missing"));
                        "?"
                    }
                    _ => {
                        holes.push(format!("{m:?} × {o:?}: listed twice"));
                        "!"
                    }
                };
                matrix.push_str(&format!(" {m:?}:{mark}"));
            }
            matrix.push('\n');
        }
        println!("{matrix}");
        assert!(holes.is_empty(), "{matrix}\n{holes:#?}");
        assert_eq!(PAIRS.len(), MOVERS.len() * OBSTACLES.len());
    }
}
