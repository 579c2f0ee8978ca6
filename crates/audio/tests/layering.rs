//! The sound has no window: `collide-audio`'s manifest names no window, GPU or renderer crate
//! (docs/architecture.md), so a headless program can use it.

#[test]
fn the_audio_crate_depends_on_no_window_gpu_or_renderer_crate() {
    let manifest = include_str!("../Cargo.toml");
    let allowed = [
        "collide-core",
        "collide-world",
        "collide-game",
        "thiserror",
        "libm",
        "hound",
        "cpal",
        "alsa",
    ];
    let mut section = String::new();
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_owned();
            continue;
        }
        let normal = section == "[dependencies]"
            || (section.starts_with("[target.") && section.ends_with(".dependencies]"));
        if normal && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                deps.push(name.trim().trim_end_matches(".workspace").to_owned());
            }
        }
    }
    assert!(deps.len() >= 6, "{deps:?}");
    for d in &deps {
        assert!(
            allowed.contains(&d.as_str()),
            "collide-audio depends on {d}"
        );
    }
}
