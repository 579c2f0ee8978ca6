//! Where the events of a pile go: the plinko board at a given restitution, with the events of
//! every step counted per ball, and for the last step the contacts of the busiest ball, the
//! busiest pairs (how often they meet, how far apart in time, at what impact speed) and how
//! many ball–ball contacts have a near-horizontal normal (balls side by side).
//!
//! Run: `cargo run --release -p collide-tests --example pile_probe -- [BALLS] [STEPS] [RESTITUTION]
//! [SLEEP]` (defaults 100, 600, 0.5, on; `off` keeps every ball awake).
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallId, Event, World};
use std::collections::BTreeMap;

/// A contact's time of impact and impact speed (ball contacts with tiles, walls and balls).
fn contact(e: &Event) -> Option<(f64, f64)> {
    match *e {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Ball(_),
            toi,
            speed,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Wall(_),
            toi,
            speed,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Cell(_),
            toi,
            speed,
            ..
        }) => Some((toi, speed)),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: f64| args.get(i).map_or(default, |s| s.parse().unwrap());
    let balls = arg(1, 100.0) as usize;
    let steps = arg(2, 600.0) as usize;
    let mut scene = collide_scenes::load("plinko").unwrap().unwrap();
    scene.step.restitution = arg(3, 0.5);
    scene.step.sleep = args.get(4).is_none_or(|s| s != "off");
    scene.spawn.as_mut().unwrap().count = balls;
    let mut w = World::from_scene(&scene).unwrap();
    let mut prev = w.energy();
    let mut rises = 0;
    let mut last = Vec::new();
    for s in 1..=steps {
        last = w.step().to_vec();
        let e = w.energy();
        rises += usize::from(e > prev);
        prev = e;
        if s % 50 == 0 || s == steps {
            let contacts = last.iter().filter(|x| contact(x).is_some()).count();
            let limits = last
                .iter()
                .filter(|x| matches!(x, Event::IterationLimit { .. }))
                .count();
            println!(
                "step {s}: {contacts} contacts ({:.1} per ball), {limits} iteration limits, \
                 {} balls asleep, energy {e:.9e}, steps with energy rising so far {rises}",
                contacts as f64 / balls as f64,
                w.sleeping_balls()
            );
        }
    }
    // The last step in detail.
    let mut per: BTreeMap<BallId, usize> = BTreeMap::new();
    let mut pairs: BTreeMap<(BallId, BallId), Vec<(f64, f64)>> = BTreeMap::new();
    let (mut ball_ball, mut side_by_side) = (0, 0);
    for x in &last {
        match *x {
            Event::Contact(Contact {
                body: Body::Ball(a),
                other: Target::Ball(b),
                normal,
                toi,
                speed,
                ..
            }) => {
                *per.entry(a).or_default() += 1;
                *per.entry(b).or_default() += 1;
                pairs.entry((a, b)).or_default().push((toi, speed));
                ball_ball += 1;
                side_by_side += usize::from(normal.y.abs() < 0.05);
            }
            Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Wall(_),
                ..
            })
            | Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Cell(_),
                ..
            }) => {
                *per.entry(ball).or_default() += 1;
            }
            _ => {}
        }
    }
    println!("last step: {ball_ball} ball-ball contacts, {side_by_side} with |normal.y| < 0.05");
    if let Some((&id, &n)) = per
        .iter()
        .max_by_key(|(id, n)| (**n, std::cmp::Reverse(**id)))
    {
        let b = w.ball(id).unwrap();
        println!(
            "busiest ball {}: {n} contacts, now at {:?} moving {:?}",
            id.to_bits(),
            b.pos,
            b.vel
        );
        let mine = |x: &&Event| match **x {
            Event::Contact(Contact {
                body: Body::Ball(a),
                other: Target::Ball(b),
                ..
            }) => a == id || b == id,
            _ => x.body() == collide_world::Body::Ball(id),
        };
        for x in last.iter().filter(mine).take(20) {
            if let Some((toi, speed)) = contact(x) {
                println!("  {} at {toi:.9} s, speed {speed:.3e}", x.kind());
            }
        }
    }
    let mut busiest: Vec<_> = pairs.iter().collect();
    busiest.sort_by_key(|(k, l)| (std::cmp::Reverse(l.len()), **k));
    for ((a, b), l) in busiest.into_iter().take(8) {
        let mut gaps: Vec<f64> = l.windows(2).map(|w| w[1].0 - w[0].0).collect();
        gaps.sort_by(f64::total_cmp);
        let mut speeds: Vec<f64> = l.iter().map(|x| x.1).collect();
        speeds.sort_by(f64::total_cmp);
        println!(
            "pair {}-{}: {} contacts, {:.2e} s apart (median), impact speed {:.2e}..{:.2e} units/s",
            a.to_bits(),
            b.to_bits(),
            l.len(),
            gaps.get(gaps.len() / 2).copied().unwrap_or(0.0),
            speeds[0],
            speeds[speeds.len() - 1]
        );
    }
}
