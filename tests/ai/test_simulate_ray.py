"""simulate --ray (DESIGN §9, issue 21): one game per task on a small local Ray gives the same games as the
local runner, seed for seed (winner, VP, turns and the final state hash); a failed task names its game; an
interrupted Ray study resumes from its stream."""

from __future__ import annotations

import json

import pytest

from game.ai import simulate, simulate_ray

SEEDS = list(range(21, 24))
"""Three games on a Ray of two CPUs: one CPU plays two of them; the interrupted study stops as its third arrives."""


def strip(results: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


@pytest.fixture(scope="module")
def cluster():
    import ray

    assert simulate_ray.start(cpus=2)  # a local Ray of 2 CPUs, started here
    yield ray
    ray.shutdown()


def test_ray_plays_the_same_games_as_the_local_runner(cluster, tmp_path, capsys):
    # DESIGN §3: the same scenario and seed give the same game whatever process plays it
    js = tmp_path / "ray.json"
    args = ["village_sweep", "--games", str(len(SEEDS)), "--seed", str(SEEDS[0]), "--quiet"]
    assert simulate.main(args + ["--ray", "--json", str(js)]) == 0
    assert cluster.is_initialized()  # the caller's Ray is left running
    assert "wall with Ray (local)" in capsys.readouterr().out
    ray_rep = json.loads(js.read_text())
    local = simulate.run("village_sweep", len(SEEDS), jobs=1, seed=SEEDS[0])
    assert strip(ray_rep["results"]) == strip(local)
    local_rep = simulate.summary(local, "village_sweep", {"threat": 2}, "dinky_dau")
    for k in ("allied_wins", "insurgent_wins", "draws", "ci95", "vp"):
        assert ray_rep[k] == local_rep[k]
    assert ray_rep["runner"] == {"ray": "local"}
    lines = simulate.stream_path(js).read_text().splitlines()
    assert sorted(json.loads(x)["seed"] for x in lines[1:]) == SEEDS  # streamed as they finished


def test_a_failed_ray_task_names_its_game(cluster):
    bad = simulate.Source("broken", "broken.toml", "[scenario]\nid = 'broken'\n")
    with pytest.raises(simulate.SimulationError, match="broken seed 5: ScenarioError"):
        simulate_ray.run(bad, [5], 2)


def test_an_interrupted_ray_study_resumes(cluster, tmp_path, capsys):
    js = tmp_path / "study.json"
    src = simulate.source_of("village_sweep")
    header = simulate.study_header(src, "dinky_dau", {"threat": 2})
    stream = simulate.Stream(simulate.stream_path(js), header, fresh=True)
    kept = []

    def arrive(rec):
        if len(kept) == 2:
            raise KeyboardInterrupt  # the study is stopped as its third game arrives
        kept.append(rec["seed"])
        stream.write(rec)

    with pytest.raises(KeyboardInterrupt):
        simulate_ray.run(src, SEEDS, 2, on_result=arrive)
    stream.close()
    assert cluster.is_initialized()
    args = ["village_sweep", "--games", str(len(SEEDS)), "--seed", str(SEEDS[0]), "--ray", "--json", str(js),
            "--quiet"]
    assert simulate.main(args) == 0
    assert "resuming" in capsys.readouterr().err
    rep = json.loads(js.read_text())
    assert rep["resumed"] == 2 and [r["seed"] for r in rep["results"]] == SEEDS
    lines = simulate.stream_path(js).read_text().splitlines()
    assert sorted(json.loads(x)["seed"] for x in lines[1:]) == SEEDS  # each game once
