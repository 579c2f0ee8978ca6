//! Criterion benchmark of characters on a real level: 1000 characters (half size 6 × 10)
//! placed clear of the level on each of the LDtk sample's four levels, walking left and right
//! at 90 units/s and jumping at 400 units/s under the map's gravity; one `World::step` (the
//! characters' move and slide and nothing else moving) per iteration.
//!
//! Characters meet each other, and a level has room for a few hundred apart: each character
//! is put on the first collision layer (1 to 30) where it meets no character of that layer,
//! and collides with the level and its own layer only (crowds of a few hundred characters
//! walking into each other); one for which every layer is taken is put on layer 31, meeting
//! the level only. The positions are those of a placement clear of the level alone.
//!
//! `cargo bench -p collide-maps --bench characters` (the LDtk sample from `../shared/maps`
//! beside the repository).

use std::path::PathBuf;
use std::time::Duration;

use collide_maps::MapConfig;
use collide_world::rng::XorShift64Star;
use collide_world::{Aabb, CharacterDesc, CharacterId, Filter, Surface, Target, Vec2, World};
use criterion::{criterion_main, Criterion};

const COUNT: usize = 1000;

/// A world of `level` with `COUNT` characters placed where their box meets nothing of the
/// level nor of their layer (module docs).
fn populated(path: &PathBuf, level: &str) -> (World, Vec<CharacterId>) {
    let map =
        collide_maps::load(path, Some(level), &MapConfig::default()).expect("the sample loads");
    let mut world = World::from_scene(&map.scene).expect("the level builds");
    let size = map.scene.size;
    let half = Vec2::new(6.0, 10.0);
    let mut rng = XorShift64Star::new(11);
    let mut ids = Vec::with_capacity(COUNT);
    let mut found = Vec::new();
    let mut tries = 0;
    while ids.len() < COUNT && tries < 1_000_000 {
        tries += 1;
        let pos = half + Vec2::new(rng.next_f64(), rng.next_f64()) * (size - half * 2.0);
        found.clear();
        world.query_aabb(&Aabb::new(pos - half, pos + half), Filter::ALL, &mut found);
        // Clear of the level, on a layer where it is clear of the characters placed.
        let mut taken = 0u32;
        let mut clear = true;
        for t in &found {
            match *t {
                Target::Character(id) => {
                    taken |= world
                        .character(id)
                        .map_or(0, |c| c.desc.surface.filter.layers);
                }
                _ => clear = false,
            }
        }
        if clear {
            let free = (!taken & !1).trailing_zeros();
            let filter = if free < 31 {
                Filter::new(1 << free, 1 | 1 << free)
            } else {
                // Layer 31: meets the level only.
                Filter::new(1 << 31, 1)
            };
            let d = CharacterDesc {
                pos,
                half_extents: half,
                snap_distance: 4.0,
                step_height: 4.0,
                surface: Surface::DEFAULT.with_filter(filter),
                ..CharacterDesc::default()
            };
            ids.push(world.add_character(d).expect("a valid character"));
        }
    }
    (world, ids)
}

fn bench(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/maps/ldtk/Typical_2D_platformer_example.ldtk");
    let mut g = c.benchmark_group("characters");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    for level in [
        "Your_typical_2D_platformer",
        "Top",
        "Bottom",
        "World_Level_3",
    ] {
        let (mut world, ids) = populated(&path, level);
        assert_eq!(ids.len(), COUNT, "{level}: room for every character");
        let mut step = 0u64;
        g.bench_function(format!("1000 characters on {level}, one step"), |b| {
            b.iter(|| {
                step += 1;
                if step % 30 == 0 {
                    for (k, &id) in ids.iter().enumerate() {
                        let c = *world.character(id).expect("alive");
                        let dir = if (k as u64 + step / 30) % 2 == 0 {
                            1.0
                        } else {
                            -1.0
                        };
                        let vy = if c.on_ground() && (k as u64 + step) % 7 == 0 {
                            -400.0
                        } else {
                            c.vel.y
                        };
                        world
                            .set_character_velocity(id, Vec2::new(90.0 * dir, vy))
                            .expect("finite");
                    }
                }
                world.step().len()
            });
        });
    }
    g.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
