//! Prints what a map level became: cells, rectangles, shapes, one-way platforms, objects and
//! the report. Run: `cargo run -p collide-maps --example map_info -- MAP [LEVEL]`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().ok_or("usage: map_info MAP [LEVEL]")?;
    let t = std::time::Instant::now();
    let level = collide_maps::load(
        path,
        args.get(1).map(String::as_str),
        &collide_maps::MapConfig::default(),
    )?;
    let elapsed = t.elapsed();
    let s = &level.scene;
    let (cells, cols, rows) = s.grid.as_ref().map_or((0, 0, 0), |g| {
        (
            g.cells
                .iter()
                .filter(|c| **c != collide_world::Cell::Empty)
                .count(),
            g.cols,
            g.rows,
        )
    });
    println!(
        "{} ({}): {} x {} px, offset {:?}, loaded in {:.3} ms",
        level.name,
        level.file.display(),
        s.size.x,
        s.size.y,
        level.world_offset,
        elapsed.as_secs_f64() * 1e3
    );
    println!(
        "grid {cols} x {rows}, {cells} non-empty cells; {} rectangles ({} one-way), {} shapes",
        s.rects.len(),
        level.one_way.len(),
        s.shapes.len()
    );
    for o in &level.objects {
        if o.body != collide_maps::ObjectBody::None || !o.kind.is_empty() || !o.name.is_empty() {
            println!(
                "  object {} {:?} kind {:?} layer {:?} at {:?}: {:?} {:?}",
                o.id, o.name, o.kind, o.layer, o.pos, o.rule, o.body
            );
        }
    }
    for (l, why) in &level.report.skipped_layers {
        println!("  skipped {l:?}: {why}");
    }
    println!(
        "  ignored properties {:?}; missing templates {:?}",
        level.report.ignored_properties, level.report.missing_templates
    );
    Ok(())
}
