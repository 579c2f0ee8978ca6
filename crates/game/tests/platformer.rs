//! The platformer on LDtk's platformer sample (`../shared/maps/ldtk/`): a scripted run of
//! inputs that plays the four levels (two chests, a locked door, ladders, a mob's bounce) to
//! victory, replayed twice with the same state hash after every step; the player never ends a
//! step inside a wall cell.

use collide_game::platformer::{PlatformerLevel, CHEST_SCORE};
use collide_game::{Game, GameEvent, Options, Source, StepInput};
use collide_world::{Cell, World};
use std::path::Path;

const SAMPLE: &str = "../../../shared/maps/ldtk/Typical_2D_platformer_example.ldtk";

fn levels() -> Vec<PlatformerLevel> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE);
    assert!(
        path.exists(),
        "the LDtk sample is missing: {} (the repository's ../shared folder)",
        path.display()
    );
    PlatformerLevel::load_all(&path).expect("the LDtk sample loads")
}

/// `(steps, input)` segments: the crate's scripted run of the sample.
fn script() -> Vec<(u32, StepInput)> {
    collide_game::platformer::sample_script()
}

fn depth_in_cells(world: &World, game: &Game) -> f64 {
    let p = game.platformer().unwrap();
    let b = world.character(p.player()).unwrap().aabb();
    let grid = world.grid().unwrap();
    let mut worst: f64 = 0.0;
    for (i, cell) in grid.cells().iter().enumerate() {
        if !matches!(cell, Cell::Wall) {
            continue;
        }
        let c = collide_world::CellCoord::new((i % grid.cols()) as u32, (i / grid.cols()) as u32);
        let a = grid.cell_aabb(c);
        let dx = (b.max.x.min(a.max.x) - b.min.x.max(a.min.x)).max(0.0);
        let dy = (b.max.y.min(a.max.y) - b.min.y.max(a.min.y)).max(0.0);
        worst = worst.max(dx.min(dy));
    }
    worst
}

struct Run {
    hashes: Vec<u64>,
    chests: u64,
    levels_left: u32,
    deepest: f64,
    level: usize,
    won: bool,
    score: u64,
}

fn play(verbose: bool) -> Run {
    let mut game = Game::new(
        Source::Platformer {
            levels: levels(),
            balls: 0,
        },
        Options::default(),
    )
    .unwrap();
    let mut run = Run {
        hashes: vec![game.state_hash()],
        chests: 0,
        levels_left: 0,
        deepest: 0.0,
        level: 0,
        won: false,
        score: 0,
    };
    let mut k = 0;
    for (steps, input) in script() {
        for _ in 0..steps {
            game.step(&input);
            k += 1;
            for e in game.last_game_events() {
                match e {
                    GameEvent::ChestCollected { .. } => run.chests += 1,
                    GameEvent::LevelCleared { .. } => run.levels_left += 1,
                    _ => {}
                }
            }
            run.deepest = run.deepest.max(depth_in_cells(game.world(), &game));
            run.hashes.push(game.state_hash());
            if verbose && (k % 5 == 0 || !game.last_game_events().is_empty()) {
                let p = game.platformer().unwrap();
                let c = game.world().character(p.player()).unwrap();
                println!(
                    "{k}: level {} pos {:.1} {:.1} vel {:.1} {:.1} ground {} climb {}",
                    p.level(),
                    c.pos.x,
                    c.aabb().max.y,
                    c.vel.x,
                    c.vel.y,
                    c.on_ground(),
                    p.climbing()
                );
                let mobs: Vec<String> = p
                    .mobs()
                    .iter()
                    .map(|m| {
                        let c = game.world().character(m.id).unwrap();
                        format!("{:.0},{:.0}", c.pos.x, c.aabb().max.y)
                    })
                    .collect();
                println!("   mobs {mobs:?} events {:?}", game.last_game_events());
            }
        }
    }
    run.level = game.platformer().unwrap().level();
    run.won = game.run().won;
    run.score = game.platformer().unwrap().score();
    run
}

#[test]
fn the_sample_has_four_levels_with_the_entities_the_rules_read() {
    use collide_game::platformer::EntityKind;
    let levels = levels();
    assert_eq!(levels.len(), 4);
    let first = &levels[0];
    assert_eq!(first.entities_of(EntityKind::Player).count(), 1);
    assert_eq!(first.entities_of(EntityKind::Chest).count(), 1);
    assert_eq!(first.entities_of(EntityKind::Mob).count(), 3);
    assert!(first.has_doors());
    assert!(levels[1]
        .entities
        .iter()
        .any(|e| e.kind == EntityKind::Door { locked: true }));
    assert!(!levels[2].has_doors() && !levels[3].has_doors());
}

#[test]
fn a_scripted_run_plays_all_four_levels_the_same_way_twice_and_never_enters_a_wall() {
    let a = play(false);
    let b = play(false);
    assert_eq!(a.hashes, b.hashes, "the same inputs give the same states");
    assert!(a.hashes.len() > 500);
    // Level 1's door, level 2's chest and its locked door, level 3's ladder out through the
    // top, level 4's chest.
    assert_eq!(a.levels_left, 4, "the run leaves the four levels");
    assert_eq!(a.level, 3);
    assert!(a.won);
    assert_eq!(a.chests, 2);
    assert_eq!(a.score, 2 * CHEST_SCORE);
    assert!(
        a.deepest <= 1e-9,
        "the player ended a step {} units inside a wall cell",
        a.deepest
    );
}

/// Plays the sample with [`Game::autopilot`] alone for at most `max` steps; returns the steps
/// taken to victory (or `None`) and how deep the player ever ended a step in a wall cell,
/// printing the level and position when `verbose`.
fn autoplay(max: u32, verbose: bool) -> (Option<u32>, f64) {
    let mut game = Game::new(
        Source::Platformer {
            levels: levels(),
            balls: 0,
        },
        Options::default(),
    )
    .unwrap();
    let mut deepest: f64 = 0.0;
    for k in 1..=max {
        let i = game.autopilot();
        game.step(&StepInput::from(&i));
        deepest = deepest.max(depth_in_cells(game.world(), &game));
        if verbose && k % 20 == 0 {
            let p = game.platformer().unwrap();
            let c = game.world().character(p.player()).unwrap();
            println!(
                "{k}: level {} pos {:.1} {:.1} vel {:.1} {:.1} ground {} climb {} input {:?} {:?} {:?}",
                p.level(),
                c.pos.x,
                c.aabb().max.y,
                c.vel.x,
                c.vel.y,
                c.on_ground(),
                p.climbing(),
                i.run_dir,
                i.climb_dir,
                i.jump
            );
        }
        if game.run().won {
            return (Some(k), deepest);
        }
    }
    (None, deepest)
}

/// The autopilot alone (only its inputs, a function of the state) clears the four levels:
/// level 3 has no chest or door, its way out is up its ladder, and level 4's chest lies above
/// the foot of its ladder. 1000 steps are about 17 s of play; the scripted run takes 597.
#[test]
fn the_autopilot_plays_the_sample_to_victory() {
    let (steps, deepest) = autoplay(1000, false);
    println!("autopilot victory after {steps:?} steps");
    assert!(steps.is_some(), "no victory within 1000 steps");
    assert_eq!(steps, autoplay(1000, false).0, "the same steps twice");
    assert!(
        deepest <= 1e-9,
        "the player ended a step {deepest} units inside a wall cell"
    );
}

/// The scripted run recorded with a hash after every step, written to a file, read back and
/// played again from the file alone (the map read again from its path): every recorded hash
/// equals the hash of the same step of an independent run, and the replay verifies. A file
/// whose inputs or map hash were edited is refused with a typed error.
#[test]
fn the_scripted_run_records_a_replay_that_plays_back_bit_for_bit() {
    use collide_game::replay::{Entry, Play, TextKind};
    use collide_game::{Replay, ReplayError, SceneText};
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE);
    let map = map.display().to_string();
    let mut game = Game::new(
        Source::Platformer {
            levels: levels(),
            balls: 0,
        },
        Options::default(),
    )
    .unwrap();
    game.start_recording(SceneText::map(&map).unwrap(), 1)
        .unwrap();
    for (steps, input) in script() {
        for _ in 0..steps {
            game.step(&input);
        }
    }
    assert!(game.run().won);
    let replay = game.take_replay().unwrap();
    assert_eq!(replay.play, Play::Platformer { balls: 0 });
    assert_eq!(replay.scene.kind, TextKind::Map);
    assert_eq!(replay.scene.file, map);
    let file =
        std::env::temp_dir().join(format!("collide-platformer-{}.replay", std::process::id()));
    replay.write(&file).unwrap();
    let read = Replay::read(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(read, replay);
    // The recorded hashes, one per step and the start, against an independent run.
    let recorded: Vec<u64> = read
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Hash { hash, .. } => Some(*hash),
            _ => None,
        })
        .collect();
    let run = play(false);
    assert_eq!(recorded.len(), 598);
    assert_eq!(recorded, run.hashes);
    let report = read.verify().unwrap();
    assert_eq!((report.steps, report.hashes_checked), (597, 598));
    assert_eq!(report.final_hash, game.state_hash());

    // An edited input: the first run to the right becomes a run to the left.
    let text = replay.to_text();
    let edited = text.replacen(r#""run_dir":1"#, r#""run_dir":-1"#, 1);
    assert_ne!(edited, text);
    match Replay::parse(&edited).unwrap().verify() {
        Err(ReplayError::HashMismatch { step, .. }) => assert_eq!(step, 1),
        other => panic!("an edited input verified: {other:?}"),
    }
    // An edited map hash.
    let edited = text.replacen(&replay.scene.text, "0123456789abcdef", 1);
    match Replay::parse(&edited).unwrap().verify() {
        Err(ReplayError::MapChanged {
            file,
            recorded,
            now,
        }) => {
            assert_eq!(file, map);
            assert_eq!(recorded, "0123456789abcdef");
            assert_eq!(now, replay.scene.text);
        }
        other => panic!("an edited map hash verified: {other:?}"),
    }
}
