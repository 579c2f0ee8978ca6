//! Contact hooks (`collide_world::ContactHook`): called at each contact's exact time of impact, in the
//! step's canonical order; `Reflect` is the step itself, `Velocity` replaces the first body's
//! response at the contact; a pure hook keeps the same bits for any thread count and in
//! domains; a bad answer is a typed error and leaves the world as it was.

use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    BallDesc, BodyShape, ContactHook, ContactInfo, ContactResponse, Event, HookError, Obstacle,
    RectDesc, RectKind, StepConfig, Walls, World,
};
use glam::DVec2;
use std::sync::atomic::{AtomicUsize, Ordering};

fn world(size: f64, dt: f64) -> World {
    let config = StepConfig {
        dt,
        ..StepConfig::default()
    };
    World::new(DVec2::new(size, size), Walls::ALL, config).expect("a valid world")
}

/// Whether an event is a contact (what hooks are called for).
fn is_contact(e: &Event) -> bool {
    matches!(
        e,
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Cell(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Wall(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Ball(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Rect(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Cell(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Wall(_),
            ..
        }) | Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Rect(_),
            ..
        })
    )
}

#[test]
fn reflect_everywhere_is_the_step_itself_and_sees_every_contact_once() {
    // 2000 balls with ball–ball contacts on the arena's tiles: a hook that always reflects
    // changes no bit, and is called exactly once per reported contact, with that event.
    let scene = arena_scene(2000, 300.0, 7);
    let mut plain = World::from_scene(&scene).expect("builds");
    let mut hooked = plain.clone();
    let calls = AtomicUsize::new(0);
    let seen = std::sync::Mutex::new(Vec::new());
    let hook = |c: &ContactInfo| {
        calls.fetch_add(1, Ordering::Relaxed);
        seen.lock().expect("not poisoned").push(c.event);
        ContactResponse::Reflect
    };
    let mut contacts = 0;
    for _ in 0..120 {
        let a = plain.step().to_vec();
        seen.lock().expect("not poisoned").clear();
        let b = hooked
            .step_with(&hook)
            .expect("reflect is always valid")
            .to_vec();
        assert_eq!(a, b);
        let mut seen_now = seen.lock().expect("not poisoned").clone();
        let mut reported: Vec<Event> = b.iter().copied().filter(is_contact).collect();
        // Same contacts; the hook sees them in time order, the list is in canonical order.
        let key = |e: &Event| format!("{e:?}");
        seen_now.sort_by_key(key);
        reported.sort_by_key(key);
        assert_eq!(seen_now, reported);
        contacts += reported.len();
        assert_eq!(plain.state_hash(), hooked.state_hash());
    }
    assert_eq!(calls.load(Ordering::Relaxed), contacts);
    assert!(
        contacts > 10_000,
        "{contacts} contacts: the test must see many"
    );
}

#[test]
fn paddle_english_at_the_exact_contact() {
    // A ball of radius 5 falls straight down at 300 units/s from y = 100 onto a kinematic
    // paddle whose top is at y = 200, spanning x in [140, 220] (centre 180). The ball's centre
    // is at x = 190, 10 right of the paddle's centre. Contact when the centre reaches
    // y = 195: after (195 − 100)/300 = 0.316… s. The hook gives english: the ball leaves with
    // (k·offset, −speed), k = 20 per unit, so (200, −300): the contact's own offset (10), not
    // the offset after the step.
    let mut w = world(400.0, 1.0 / 60.0);
    let ball = w
        .add_ball(BallDesc {
            pos: DVec2::new(190.0, 100.0),
            vel: DVec2::new(0.0, 300.0),
            radius: 5.0,
            ..BallDesc::default()
        })
        .expect("valid");
    let paddle = w
        .add_rect(RectDesc {
            aabb: collide_world::Aabb::new(DVec2::new(140.0, 200.0), DVec2::new(220.0, 210.0)),
            vel: DVec2::ZERO,
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .expect("valid");
    let english = |c: &ContactInfo| match (c.first.shape, c.other) {
        (BodyShape::Circle(ball), Obstacle::Body(p)) => {
            let BodyShape::Box(b) = p.shape else {
                return ContactResponse::Reflect;
            };
            let offset = ball.center.x - 0.5 * (b.min.x + b.max.x);
            ContactResponse::Velocity(DVec2::new(20.0 * offset, -c.first.vel.length()))
        }
        _ => ContactResponse::Reflect,
    };
    let t_hit = (195.0 - 100.0) / 300.0;
    let mut hit = None;
    while w.time() < 1.0 && hit.is_none() {
        let t0 = w.time();
        let events = w.step_with(&english).expect("finite english").to_vec();
        for e in events {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(rect),
                point,
                toi,
                ..
            }) = e
            {
                assert_eq!(rect, paddle);
                hit = Some((t0 + toi, point));
            }
        }
    }
    let (t, point) = hit.expect("the ball hits the paddle");
    assert!((t - t_hit).abs() < 1e-12, "{t} vs {t_hit}");
    assert!(
        (point - DVec2::new(190.0, 200.0)).length() < 1e-9,
        "{point}"
    );
    // After the step: at the contact position plus the hook's velocity for the time left.
    let b = w.ball(ball).expect("alive");
    assert_eq!(b.vel, DVec2::new(200.0, -300.0));
    let expect = DVec2::new(190.0, 195.0) + DVec2::new(200.0, -300.0) * (w.time() - t_hit);
    assert!((b.pos - expect).length() < 1e-9, "{} vs {expect}", b.pos);
}

#[test]
fn velocity_goes_to_the_event_s_first_ball_and_the_other_keeps_its_bounce() {
    // Two equal balls head-on along x: a (id 0) at x = 100 moving right at 100, b at x = 200
    // moving left at 100, radius 10: contact when the gap 80 closes at 200 units/s, t = 0.4.
    // The elastic exchange would swap their velocities. The hook sends the first ball of the
    // event (a, the lower id) straight up at 50; b keeps its own response (+100 along x).
    let mut w = world(1000.0, 0.5);
    let a = w
        .add_ball(BallDesc {
            pos: DVec2::new(100.0, 500.0),
            vel: DVec2::new(100.0, 0.0),
            radius: 10.0,
            ..BallDesc::default()
        })
        .expect("valid");
    let b = w
        .add_ball(BallDesc {
            pos: DVec2::new(200.0, 500.0),
            vel: DVec2::new(-100.0, 0.0),
            radius: 10.0,
            ..BallDesc::default()
        })
        .expect("valid");
    let hook = |c: &ContactInfo| match c.event {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Ball(_),
            ..
        }) => ContactResponse::Velocity(DVec2::new(0.0, -50.0)),
        _ => ContactResponse::Reflect,
    };
    let events = w.step_with(&hook).expect("valid").to_vec();
    assert!(
        matches!(events[..], [Event::Contact(Contact { body: Body::Ball(ea), other: Target::Ball(eb), toi, .. })]
        if ea == a && eb == b && (toi - 0.4).abs() < 1e-12)
    );
    let (ba, bb) = (w.ball(a).expect("alive"), w.ball(b).expect("alive"));
    assert_eq!(ba.vel, DVec2::new(0.0, -50.0));
    assert_eq!(bb.vel, DVec2::new(100.0, 0.0));
    // Each from its contact position (140 and 160) for the remaining 0.1 s.
    assert!(
        (ba.pos - DVec2::new(140.0, 495.0)).length() < 1e-9,
        "{}",
        ba.pos
    );
    assert!(
        (bb.pos - DVec2::new(170.0, 500.0)).length() < 1e-9,
        "{}",
        bb.pos
    );
}

#[test]
fn two_boxes_name_the_lower_id_first_whichever_box_found_their_contact() {
    // Two equal dynamic boxes 20 × 20: a (id 0) at rest centred at (500, 500), b (id 1)
    // centred at (900, 500) moving right at 1000. b meets the right wall when its right side
    // (910) reaches 1000, at t = 0.09, and comes back at 1000 units/s; its left side (980)
    // then meets a's right side (510) 0.47 s later, at t = 0.56. The contact is found by b
    // (a at rest has nothing to meet), and the event and the hook still name a first, the
    // normal pointing toward it (-x). The hook sends the first box straight up at 50; b keeps
    // its own response, the elastic exchange (at rest).
    let mut w = world(1000.0, 0.6);
    let square =
        |c: DVec2| collide_world::Aabb::new(c - DVec2::splat(10.0), c + DVec2::splat(10.0));
    let a = w
        .add_rect(RectDesc {
            aabb: square(DVec2::new(500.0, 500.0)),
            kind: RectKind::Dynamic,
            ..RectDesc::default()
        })
        .expect("valid");
    let b = w
        .add_rect(RectDesc {
            aabb: square(DVec2::new(900.0, 500.0)),
            vel: DVec2::new(1000.0, 0.0),
            kind: RectKind::Dynamic,
            ..RectDesc::default()
        })
        .expect("valid");
    let firsts = std::sync::Mutex::new(Vec::new());
    let hook = |c: &ContactInfo| match c.event {
        Event::Contact(Contact {
            other: Target::Rect(_),
            ..
        }) => {
            firsts.lock().expect("not poisoned").push(c.first.body);
            ContactResponse::Velocity(DVec2::new(0.0, -50.0))
        }
        _ => ContactResponse::Reflect,
    };
    let events = w.step_with(&hook).expect("valid").to_vec();
    let pair: Vec<&Contact> = events
        .iter()
        .filter_map(|e| match e {
            Event::Contact(
                c @ Contact {
                    other: Target::Rect(_),
                    ..
                },
            ) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(pair.len(), 1, "{events:?}");
    assert_eq!(
        (pair[0].body, pair[0].other),
        (Body::Rect(a), Target::Rect(b))
    );
    assert_eq!(pair[0].normal, DVec2::new(-1.0, 0.0));
    assert!((pair[0].toi - 0.56).abs() < 1e-12, "{}", pair[0].toi);
    assert_eq!(*firsts.lock().expect("not poisoned"), vec![Body::Rect(a)]);
    let (ra, rb) = (w.rect(a).expect("alive"), w.rect(b).expect("alive"));
    assert_eq!(ra.vel, DVec2::new(0.0, -50.0));
    assert_eq!(rb.vel, DVec2::ZERO);
    // a from the contact for the remaining 0.04 s; b stays where it met a.
    assert!(
        (ra.aabb.center() - DVec2::new(500.0, 498.0)).length() < 1e-9,
        "{:?}",
        ra.aabb
    );
    assert!(
        (rb.aabb.center() - DVec2::new(520.0, 500.0)).length() < 1e-9,
        "{:?}",
        rb.aabb
    );
}

#[test]
fn a_bad_velocity_is_an_error_and_the_world_is_left_as_it_was() {
    let scene = arena_scene(500, 300.0, 3);
    let mut w = World::from_scene(&scene).expect("builds");
    for _ in 0..5 {
        w.step();
    }
    let straight = w.clone();
    let (hash, time, steps) = (w.state_hash(), w.time(), w.steps());
    // Fine for the first 20 contacts, then NaN: the error comes mid-step.
    let calls = AtomicUsize::new(0);
    let bad = |_: &ContactInfo| {
        if calls.fetch_add(1, Ordering::Relaxed) < 20 {
            ContactResponse::Reflect
        } else {
            ContactResponse::Velocity(DVec2::new(f64::NAN, 0.0))
        }
    };
    let err = w.step_with(&bad).expect_err("NaN is refused");
    assert!(
        calls.load(Ordering::Relaxed) > 20,
        "the error came mid-step"
    );
    let HookError::BadVelocity {
        velocity, event, ..
    } = err.clone()
    else {
        panic!("expected a bad velocity, got {err:?}");
    };
    assert!(velocity.x.is_nan());
    assert!(is_contact(&event));
    assert!(err.to_string().contains("finite"), "{err}");
    assert_eq!((w.state_hash(), w.time(), w.steps()), (hash, time, steps));
    assert!(w.events().is_empty());
    // Too fast is refused the same way.
    let huge = |_: &ContactInfo| ContactResponse::Velocity(DVec2::new(0.0, 2e9));
    assert!(w.step_with(&huge).is_err());
    assert_eq!(w.state_hash(), hash);
    // And the world goes on exactly as one that never met the bad hook.
    let mut a = w;
    let mut b = straight;
    for _ in 0..30 {
        assert_eq!(a.step().to_vec(), b.step().to_vec());
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

/// A pure hook that changes the physics everywhere: a ball hitting a tile or a wall leaves at
/// its reflected speed turned by a fixed small angle (a "spin" rule), ball–ball contacts
/// reflect.
fn spin(c: &ContactInfo) -> ContactResponse {
    match c.event {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Cell(_),
            normal,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Wall(_),
            normal,
            ..
        }) => {
            let v = c.first.vel;
            let r = v - normal * (2.0 * v.dot(normal));
            // Rotate by atan(1/8) and rescale to |r|: exact + - * / only.
            let turned = DVec2::new(r.x - r.y / 8.0, r.y + r.x / 8.0);
            let k = r.length() / turned.length();
            let out = turned * k;
            // Keep it leaving the surface.
            if out.dot(normal) > 0.0 {
                ContactResponse::Velocity(out)
            } else {
                ContactResponse::Reflect
            }
        }
        _ => ContactResponse::Reflect,
    }
}

fn hashes_with_hook(mut w: World, threads: usize, steps: usize) -> (Vec<u64>, (u64, u64)) {
    w.set_threads(threads);
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        w.step_with(&spin).expect("finite");
        out.push(w.state_hash());
    }
    (out, w.domain_steps())
}

#[test]
fn a_pure_hook_gives_the_same_bits_with_1_2_and_3_threads_and_in_domains() {
    // Four arenas side by side, 20 000 balls: large enough for spatial domains.
    let w = World::from_scene(&arena_scene_tiled(20_000, 120.0, 5, 4, 1)).expect("builds");
    let (h1, d1) = hashes_with_hook(w.clone(), 1, 30);
    assert_eq!(d1, (0, 0));
    for threads in [2, 3] {
        let (h, (domain, _)) = hashes_with_hook(w.clone(), threads, 30);
        let first = h1.iter().zip(&h).position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads: first different step");
        assert!(domain > 0, "{threads} threads: domains were used");
    }
    // The hook changed the physics (the test would pass vacuously otherwise).
    let mut plain = w;
    for _ in 0..30 {
        plain.step();
    }
    assert_ne!(plain.state_hash(), h1[29]);
}

#[test]
fn a_hook_is_any_send_sync_closure_or_type() {
    struct Bumper(f64);
    impl ContactHook for Bumper {
        fn on_contact(&self, c: &ContactInfo) -> ContactResponse {
            match c.other {
                Obstacle::Wall(_) => ContactResponse::Velocity(c.first.vel * -self.0),
                _ => ContactResponse::Reflect,
            }
        }
    }
    // A ball moving left at 10 from x = 20 (radius 5) meets the left wall at t = 1.5 and
    // leaves at 20 units/s (the bumper's factor 2): at t = 2 it is at 5 + 20·0.5 = 15.
    let mut w = world(100.0, 0.5);
    let id = w
        .add_ball(BallDesc {
            pos: DVec2::new(20.0, 50.0),
            vel: DVec2::new(-10.0, 0.0),
            radius: 5.0,
            ..BallDesc::default()
        })
        .expect("valid");
    for _ in 0..4 {
        w.step_with(&Bumper(2.0)).expect("finite");
    }
    let b = w.ball(id).expect("alive");
    assert_eq!(b.vel, DVec2::new(20.0, 0.0));
    assert!((b.pos.x - 15.0).abs() < 1e-12, "{}", b.pos.x);
}
