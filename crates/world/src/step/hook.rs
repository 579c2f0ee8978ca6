//! The step with a contact hook ([`crate::ContactHook`]): `World::step_with`.

use crate::model::event::Event;
use crate::model::hook::{ContactHook, HookError};
use crate::world::snapshot::Snapshot;
use crate::world::World;

impl World {
    /// Advances the world by one step as [`World::step`] does, calling `hook` at every
    /// contact's exact time of impact (see [`crate::ContactHook`]).
    ///
    /// # Errors
    /// [`HookError`] when the hook returns a velocity the step cannot apply; the world is then
    /// left exactly as it was before the call (same state, same [`World::state_hash`]; the
    /// step's caches are built again, as after [`World::restore`]).
    pub fn step_with(&mut self, hook: &dyn ContactHook) -> Result<&[Event], HookError> {
        let before: Snapshot = self.snapshot();
        self.step_inner(Some(hook));
        if let Some(err) = self.scratch.hook_error.take() {
            // A snapshot of this very world always restores.
            let restored = self.restore(&before);
            debug_assert!(restored.is_ok(), "{restored:?}");
            self.events.clear();
            self.event_times.clear();
            return Err(*err);
        }
        Ok(&self.events)
    }
}
