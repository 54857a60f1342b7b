"""The armour film: ``film.find`` drives the real engine through seeded thunder_road games until a hull
brews up after a crew has bailed out, and keeps the batches that tell it (the first RPG shot, the strikes,
the bail-out, the brew-up); ``film.play`` then puts those batches through the presenter on the table."""

from __future__ import annotations

from game.client import film
from game.engine.client import InProcessEngine

STORY = {"at_fire", "armour", "bailout", "brew_up"}


def _found() -> film.Situation:
    with InProcessEngine() as link:
        sit = film.find(link, "thunder_road", "armour", film.parse_args(["x", "--out", "x"]).seed, 40,
                        log=lambda *_: None)
    assert sit is not None, "no brew-up after a bail-out in 40 seeds of thunder_road"
    return sit


def test_the_film_finds_the_armour_story_of_a_real_game():
    sit = _found()
    story = [[e for e in sit.batches[i][0] if e.get("type") in STORY] for i in sit.story]
    assert 2 <= len(story) <= film.ARMOUR_STORY and sit.story == sorted(sit.story)
    # it opens on an anti-tank shot (DD-7.4) and ends in the batch where a hull brews up (DD-7.7)
    assert any(e["type"] == "at_fire" for e in story[0])
    assert any(e["type"] == "brew_up" for e in story[-1])
    kinds = {e["type"] for batch in story for e in batch}
    assert kinds == STORY  # a strike on the armour (ricochet or penetration) and a bail-out on the way (DD-7.7)
    assert {e["result"] for batch in story for e in batch if e["type"] == "armour"} & {"ricochet", "penetration"}
    # every filmed batch but the first holds a strike: the misses between are applied at once
    assert all(any(e["type"] != "at_fire" for e in batch) for batch in story[1:])
    # the story is the engine's own: each filmed batch is the events of one game.step, in sequence
    seqs = [e["seq"] for i in sit.story for e in sit.batches[i][0] if "seq" in e]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_the_armour_story_plays_on_the_table_and_leaves_a_wreck(make_app, tmp_path):
    """The found batches through the real presenter (160x90, 4 frames a second, a folder of PNGs): every
    hull the engine calls a wreck at the end is drawn as one (DD-7.7), and the set pieces were filmed."""
    from game.client.director import Director

    app = make_app(InProcessEngine, size=(160, 90))
    sit = film.find(app.link, "thunder_road", "armour", film.parse_args(["x", "--out", "x"]).seed, 40,
                    log=lambda *_: None)
    assert sit is not None
    rec = film.Recorder(app, str(tmp_path / "frames"), 4)
    film.play(app, Director(app), sit, rec, 4, 0.25)
    assert rec.frames >= 4 * len(sit.story)  # each filmed batch ran its set piece at 1x, a second or more
    assert len(list((tmp_path / "frames").glob("frame_*.png"))) == rec.frames
    # the hull that brewed up is now a wreck marker of the view (DD-7.7), drawn as its burnt hull on the table
    wrecks = {m["id"]: m for m in app.view.get("markers", []) if m.get("kind") == "wreck"}
    brewed = {e["vehicle"] for e in sit.batches[sit.story[-1]][0] if e["type"] == "brew_up"}
    assert brewed and {f"wreck_{v}" for v in brewed} <= set(wrecks)
    assert not brewed & set(app.scene.pieces.stands)  # its stand has left the table
    for mid in wrecks:
        node = app.scene.pieces.markers.get(mid)
        assert node is not None and node.get_num_children() == 1, mid
