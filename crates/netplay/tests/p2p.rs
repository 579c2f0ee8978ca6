//! Two peers over GGRS on loopback UDP with 60-120 ms simulated latency and 5 % dropped
//! packets each way: after 1000 frames of scripted inputs their confirmed states are the same
//! bits and GGRS detected no desync (`run_two_peers` fails on a `DesyncDetected` event, and on
//! a 60 s time limit rather than hang).

use collide_netplay::p2p::{run_two_peers, P2pOptions};
use collide_netplay::Game;

#[test]
fn two_peers_over_a_lossy_laggy_network_agree_after_1000_frames() {
    let opts = P2pOptions::default();
    assert_eq!(opts.frames, 1000);
    let [a, b] = run_two_peers(&opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.hash, b.hash, "{a:?}\n{b:?}");
    assert!(a.confirmed_frame >= 1000 && b.confirmed_frame >= 1000);
    // The simulated network did drop packets and late inputs did cause rollbacks.
    assert!(a.dropped + b.dropped > 0, "{a:?}\n{b:?}");
    assert!(a.rollbacks + b.rollbacks > 0, "{a:?}\n{b:?}");
    // And the confirmed state is the one of a plain local run of the same inputs, shifted by
    // the input delay (an input given at frame f applies at frame f + delay).
    let mut game = Game::pinball().unwrap();
    let mut session = ggrs::SessionBuilder::<collide_netplay::NetplayConfig>::new()
        .with_num_players(2)
        .unwrap()
        .with_input_delay(opts.input_delay)
        .with_check_distance(0)
        .start_synctest_session()
        .unwrap();
    for frame in 0..1000 {
        for player in 0..2 {
            session
                .add_local_input(player, collide_netplay::p2p::scripted_input(player, frame))
                .unwrap();
        }
        game.handle_requests(session.advance_frame().unwrap())
            .unwrap();
    }
    assert_eq!(game.hash_at(1000), Some(a.hash));
}
