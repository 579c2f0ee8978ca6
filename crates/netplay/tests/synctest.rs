//! GGRS's own determinism test of save/load: a `SyncTestSession` rolls back `check_distance`
//! frames every frame, re-simulates them and compares the checksums (the world's state hash)
//! of each frame's first and re-simulated runs; a difference is a `MismatchedChecksum` error.

use collide_netplay::{Game, NetplayConfig, PlayerInput};
use ggrs::SessionBuilder;

#[test]
fn synctest_2000_frames_of_random_inputs_check_distance_7() {
    let check_distance = 7;
    let mut session = SessionBuilder::<NetplayConfig>::new()
        .with_num_players(2)
        .unwrap()
        .with_check_distance(check_distance)
        .start_synctest_session()
        .unwrap();
    let mut game = Game::pinball().unwrap();
    let mut rng = fastrand::Rng::with_seed(37);
    let mut held = [false; 2];
    let start_hash = game.world().state_hash();
    for frame in 0..2000 {
        for (player, h) in held.iter_mut().enumerate() {
            // Change each button with probability 1/8 per frame: presses and releases of a
            // few frames, as a player's.
            if rng.u8(..8) == 0 {
                *h = !*h;
            }
            session
                .add_local_input(player, PlayerInput::flipper(*h))
                .unwrap();
        }
        let requests = session
            .advance_frame()
            .unwrap_or_else(|e| panic!("frame {frame}: {e}"));
        game.handle_requests(requests).unwrap();
    }
    assert_eq!(game.frame(), 2000);
    // Every frame past the first `check_distance` rolled back once.
    assert!(
        game.rollbacks() >= 2000 - check_distance as u64 - 1,
        "{} rollbacks",
        game.rollbacks()
    );
    assert_ne!(game.world().state_hash(), start_hash);
}
