//! Spatial domains (`collide_world`'s `domains.rs`): a large world of balls stepped with 2 or
//! 3 threads is cut into domains stepped in parallel, checked, and kept only when exact. These
//! tests step the same world with 1 thread (the serial loop, never domains) and with 2 and 3,
//! and require the same state hash and the same events after every step, bit for bit, and
//! that the domains were really used. Plus the ordering rule that makes domains possible:
//! simultaneous events are ordered by stable ids, not by where the balls are stored.

use collide_scenes::arena_scene_tiled;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, StepConfig, Surface, Walls, World};
use glam::DVec2;

/// Every step's state hash and events.
fn run(mut world: World, threads: usize, steps: usize) -> (Vec<u64>, Vec<Vec<Event>>, World) {
    world.set_threads(threads);
    let mut hashes = Vec::with_capacity(steps);
    let mut events = Vec::with_capacity(steps);
    for _ in 0..steps {
        events.push(world.step().to_vec());
        hashes.push(world.state_hash());
    }
    (hashes, events, world)
}

/// Steps `world` with 1 thread and with 2 and 3, compares every step; returns, for 2 and 3
/// threads, (steps taken in domains, domain steps run again serially).
fn same_with_domains(world: &World, steps: usize) -> Vec<(u64, u64)> {
    let (h1, e1, w1) = run(world.clone(), 1, steps);
    assert_eq!(w1.domain_steps(), (0, 0), "one thread never uses domains");
    let mut used = Vec::new();
    for threads in [2, 3] {
        let (h, e, w) = run(world.clone(), threads, steps);
        let first = h1.iter().zip(&h).position(|(a, b)| a != b);
        assert_eq!(
            first, None,
            "{threads} threads: the state hash first differs after step {first:?}"
        );
        for (k, (a, b)) in e1.iter().zip(&e).enumerate() {
            assert_eq!(a.len(), b.len(), "{threads} threads, step {k}: event count");
            let first = a.iter().zip(b).position(|(x, y)| x != y);
            assert_eq!(
                first, None,
                "{threads} threads, step {k}: first different event"
            );
        }
        used.push(w.domain_steps());
    }
    used
}

#[test]
fn tiled_arena_40000_balls_same_bits_in_domains() {
    // Four arenas side by side (4000 × 1000): four domains of about 10 000 balls.
    let world = World::from_scene(&arena_scene_tiled(40_000, 60.0, 3, 4, 1)).expect("builds");
    let used = same_with_domains(&world, 25);
    for (domain, failed) in used {
        // A new world steps serially for 8 steps (its balls were just added: an edit), then
        // in domains.
        assert!(
            domain >= 17,
            "domains used in {domain} of 25 steps ({failed} failed checks)"
        );
    }
}

/// 30 000 balls of radii 1.5–3 and densities 0.5–8 on a jittered lattice (no overlap) in a
/// closed 3000 × 1000 box, in random directions at up to `speed` units/s, from xorshift64*.
fn mixed_world(speed: f64, seed: u64) -> World {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut uniform = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    let config = StepConfig {
        dt: 1.0 / 60.0,
        ..StepConfig::default()
    };
    let mut w = World::new(DVec2::new(3000.0, 1000.0), Walls::ALL, config).expect("a valid world");
    let (cols, rows) = (300, 100);
    for k in 0..30_000 {
        let (c, r) = ((k % cols) as f64, (k / cols % rows) as f64);
        let pos = DVec2::new(
            5.0 + 10.0 * c + uniform() - 0.5,
            5.0 + 10.0 * r + uniform() - 0.5,
        );
        let angle = std::f64::consts::TAU * uniform();
        let vel = DVec2::new(angle.cos(), angle.sin()) * speed * uniform();
        w.add_ball(BallDesc {
            pos,
            vel,
            radius: 1.5 + 1.5 * uniform(),
            density: 0.5 + 7.5 * uniform(),
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .expect("a valid ball");
    }
    w
}

#[test]
fn mixed_radii_and_masses_same_bits_in_domains() {
    let used = same_with_domains(&mixed_world(120.0, 11), 30);
    for (domain, failed) in used {
        assert!(
            domain >= 20,
            "domains used in {domain} of 30 steps ({failed} failed checks)"
        );
    }
}

#[test]
fn a_collision_carried_across_a_cut_fails_the_check_and_gives_the_same_bits() {
    // Rows of touching balls across the cuts between domains (x = 1000, 1500, 2000 for 2 and
    // 3 domains in a 3000-wide world), each struck from beyond a halo: the striker's domain
    // sees the impulse run along the row into the balls of the domain on the other side of
    // the cut, which never sees the striker. Those domain steps fail their check and run
    // serially, with the same result.
    let mut world = mixed_world(60.0, 5);
    let lattice: Vec<_> = world
        .balls()
        .filter(|b| b.pos.y > 700.0)
        .map(|b| b.id)
        .collect();
    for id in lattice {
        world.remove_ball(id).expect("a live ball");
    }
    for cut in [1000.0, 1500.0, 2000.0] {
        for k in 0..30 {
            let pos = DVec2::new(cut - 40.0 + 4.0 * f64::from(k), 960.0);
            world
                .add_ball(BallDesc {
                    pos,
                    vel: DVec2::ZERO,
                    radius: 2.0,
                    density: 1.0,
                    surface: Surface::DEFAULT,
                    gravity_scale: 1.0,
                })
                .expect("a valid ball");
        }
        // Far enough that the strike comes after the first 8 (serial) steps.
        let pos = DVec2::new(cut + 250.0, 960.0);
        let vel = DVec2::new(-600.0, 0.0);
        world
            .add_ball(BallDesc {
                pos,
                vel,
                radius: 2.0,
                density: 1.0,
                surface: Surface::DEFAULT,
                gravity_scale: 1.0,
            })
            .expect("valid");
    }
    let used = same_with_domains(&world, 30);
    for (domain, failed) in used {
        assert!(
            failed > 0,
            "no domain step failed its check ({domain} in domains)"
        );
        assert!(
            domain >= 15,
            "domains used in {domain} of 30 steps ({failed} failed checks)"
        );
    }
}

#[test]
fn simultaneous_contacts_do_not_depend_on_storage_order() {
    // Rows of three balls of different masses meeting at one instant: the middle ball is hit
    // from both sides at the same time, so the result depends on which contact is handled
    // first. Two worlds hold the same balls (same id slots) in different storage orders; the
    // contacts are ordered by id, so their balls end bit for bit alike.
    let build = |reorder: bool| {
        let config = StepConfig {
            dt: 1.0 / 60.0,
            ..StepConfig::default()
        };
        let mut w = World::new(DVec2::new(400.0, 400.0), Walls::ALL, config).expect("valid");
        let mut ids = Vec::new();
        for row in 0..8 {
            let y = 20.0 + 45.0 * row as f64;
            let (m_left, m_mid, m_right) = (1.0 + row as f64, 3.0, 0.5 + 0.25 * row as f64);
            for (x, vx, density) in [
                (100.0, 60.0, m_left),
                (130.0, 0.0, m_mid),
                (160.0, -60.0, m_right),
            ] {
                ids.push(
                    w.add_ball(BallDesc {
                        pos: DVec2::new(x, y),
                        vel: DVec2::new(vx, 0.0),
                        radius: 5.0,
                        density,
                        surface: Surface::DEFAULT,
                        gravity_scale: 1.0,
                    })
                    .expect("valid"),
                );
            }
        }
        if reorder {
            // Take out every middle ball and put it back: the same id slots, stored elsewhere.
            for k in (1..ids.len()).step_by(3) {
                let b = w.remove_ball(ids[k]).expect("live");
                ids[k] = w
                    .add_ball(BallDesc {
                        pos: b.pos,
                        vel: b.vel,
                        radius: b.radius,
                        density: b.density,
                        surface: Surface::DEFAULT,
                        gravity_scale: 1.0,
                    })
                    .expect("valid");
            }
        }
        (w, ids)
    };
    let (mut a, ids_a) = build(false);
    let (mut b, ids_b) = build(true);
    assert!(ids_a
        .iter()
        .zip(&ids_b)
        .all(|(x, y)| x.index() == y.index()));
    let order_a: Vec<u32> = a.balls().map(|x| x.id.index()).collect();
    let order_b: Vec<u32> = b.balls().map(|x| x.id.index()).collect();
    assert_ne!(order_a, order_b, "the storage orders differ");
    let mut contacts = 0;
    for _ in 0..60 {
        contacts += a
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Ball(_),
                        ..
                    })
                )
            })
            .count();
        b.step();
        for (x, y) in ids_a.iter().zip(&ids_b) {
            let (p, q) = (a.ball(*x).expect("live"), b.ball(*y).expect("live"));
            assert_eq!((p.pos, p.vel), (q.pos, q.vel), "ball slot {}", x.index());
        }
    }
    assert!(contacts >= 16, "the rows collided ({contacts} contacts)");
}

#[test]
fn a_world_edited_every_step_stays_serial_and_takes_domains_when_left_alone() {
    // Steering a ball before each of the first 20 steps (a game's edit): building the domains
    // would predict every ball each step, so the step stays serial; 8 steps after the last
    // edit the domains are built. Every step gives the same bits as one thread.
    let world = World::from_scene(&arena_scene_tiled(40_000, 60.0, 9, 4, 1)).expect("builds");
    let steer = |w: &mut World, k: usize| {
        let b = w.balls().get(k).expect("a ball");
        w.set_ball_velocity(b.id, -b.vel).expect("a live ball");
    };
    let mut one = world.clone();
    let mut two = world;
    two.set_threads(2);
    for k in 0..40 {
        if k < 20 {
            steer(&mut one, k);
            steer(&mut two, k);
        }
        assert_eq!(one.step(), two.step(), "step {k}: events");
        assert_eq!(one.state_hash(), two.state_hash(), "step {k}: state");
        let (domain, _) = two.domain_steps();
        if k < 27 {
            assert_eq!(
                domain, 0,
                "step {k}: no domains while edited and for 8 steps after"
            );
        }
    }
    assert!(two.domain_steps().0 >= 10, "{:?}", two.domain_steps());
}
