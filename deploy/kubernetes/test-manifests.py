#!/usr/bin/env python3
"""Checks the Kubernetes manifests without a cluster.

    deploy/kubernetes/test-manifests.py [ODDSMITH_BINARY]

Parses shards.yaml and merge.yaml (PyYAML; Debian's python3-yaml) as committed and as
submit.sh renders them for another N, and checks what Kubernetes would only find out at run
time: an Indexed Job whose N (completions) is the N the pods pass to --shard, every volume a
container mounts declared, one claim shared by both Jobs, names that fit, and container
scripts that parse (sh -n). Given the oddsmith binary, it then plays the Jobs on this machine:
it runs the shard container's script once per completion index (index 0 twice, as a retried
pod: it replaces its own shard file, and no temporary file is left) and then the merge
container's script, with the volumes as local folders, and compares the merge Job's log (the
JSON document) and the report's CSV tables with a single run, byte for byte.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DNS_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")


def fail(msg):
    print(f"FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def load(text, what):
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as e:
        fail(f"{what} is not YAML: {e}")
    for d in docs:
        for key in ("apiVersion", "kind", "metadata"):
            check(key in d, f"{what}: a document without {key}")
        name = d["metadata"].get("name", "")
        check(
            DNS_LABEL.match(name) and len(name) <= 63,
            f"{what}: {d['kind']} name '{name}' is not a DNS label of at most 63 characters",
        )
        check(d["metadata"].get("labels", {}).get("app") == "oddsmith", f"{what}: {name} without app: oddsmith")
    return docs


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def the_job(docs, what):
    jobs = [d for d in docs if d["kind"] == "Job"]
    check(len(jobs) == 1, f"{what}: {len(jobs)} Jobs, expected 1")
    job = jobs[0]
    check(job["apiVersion"] == "batch/v1", f"{what}: Job apiVersion {job['apiVersion']}")
    pod = job["spec"]["template"]["spec"]
    check(pod.get("restartPolicy") == "Never", f"{what}: restartPolicy must be Never")
    check(len(pod["containers"]) == 1, f"{what}: one container expected")
    c = pod["containers"][0]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for m in c.get("volumeMounts", []):
        check(m["name"] in volumes, f"{what}: mount of undeclared volume {m['name']}")
    check(c["command"] == ["/bin/sh", "-c"] and len(c["args"]) == 1, f"{what}: command must be /bin/sh -c SCRIPT")
    r = subprocess.run(["sh", "-n", "-c", c["args"][0]], capture_output=True, text=True)
    check(r.returncode == 0, f"{what}: the container script does not parse: {r.stderr}")
    run = env_of(c).get("RUN")
    check(run and DNS_LABEL.match(run), f"{what}: RUN '{run}' is not a DNS label")
    for labels in (job["metadata"]["labels"], job["spec"]["template"]["metadata"]["labels"]):
        check(labels.get("oddsmith-run") == run, f"{what}: label oddsmith-run is not RUN ({run})")
    return job, pod, c, volumes


def check_pair(sdocs, mdocs, n, what):
    """The two manifests of one run, for N shards; returns (shard container, merge container)."""
    claims = [d for d in sdocs if d["kind"] == "PersistentVolumeClaim"]
    check(len(claims) == 1, f"{what}: shards.yaml must declare the one claim")
    check("ReadWriteMany" in claims[0]["spec"]["accessModes"], f"{what}: the claim must be ReadWriteMany")
    claim = claims[0]["metadata"]["name"]

    job, pod, c, volumes = the_job(sdocs, f"{what} shards")
    spec, env = job["spec"], env_of(c)
    run = env["RUN"]
    check(spec.get("completionMode") == "Indexed", f"{what}: the shard Job must be Indexed")
    check(spec["completions"] == n, f"{what}: completions {spec['completions']}, expected {n}")
    check(env.get("SHARDS") == str(n), f"{what}: SHARDS {env.get('SHARDS')} is not completions ({n})")
    check(1 <= spec["parallelism"] <= n, f"{what}: parallelism {spec['parallelism']} not within 1..{n}")
    check(job["metadata"]["name"] == f"oddsmith-shards-{run}", f"{what}: shard Job name")
    script = c["args"][0]
    for word in ("JOB_COMPLETION_INDEX", "--shard ", "--shard-out", "$RUN_OPTIONS", "$THREADS"):
        check(word in script, f"{what}: the shard script does not use {word}")
    check(volumes["work"]["persistentVolumeClaim"]["claimName"] == claim, f"{what}: shards not on claim {claim}")
    check(volumes["scenario"]["configMap"]["name"] == f"oddsmith-scenario-{run}", f"{what}: ConfigMap name")
    threads = [e for e in c["env"] if e["name"] == "THREADS"][0]["valueFrom"]["resourceFieldRef"]
    check(threads["containerName"] == c["name"], f"{what}: THREADS from another container")

    mjob, _, m, mvolumes = the_job(mdocs, f"{what} merge")
    menv = env_of(m)
    check(mjob["metadata"]["name"] == f"oddsmith-merge-{run}", f"{what}: merge Job name")
    check(menv.get("SHARDS") == str(n) and menv.get("RUN") == run, f"{what}: merge SHARDS/RUN differ from the shards'")
    check(mvolumes["work"]["persistentVolumeClaim"]["claimName"] == claim, f"{what}: merge not on claim {claim}")
    check(m["image"] == c["image"], f"{what}: the two Jobs use different images")
    check(mjob["spec"].get("backoffLimit") == 0, f"{what}: the merge is deterministic: backoffLimit 0")
    mount = {x["name"]: x["mountPath"] for x in m["volumeMounts"]}["work"]
    check({x["name"]: x["mountPath"] for x in c["volumeMounts"]}["work"] == mount, f"{what}: work mounted apart")
    return c, m


def rendered(n, parallelism, options):
    env = dict(os.environ, PRINT="1", PARALLELISM=str(parallelism), RUN_NAME="test-run")
    scenario = os.path.join(ROOT, "scenarios", "draft", "reference-duels.toml")
    out = subprocess.run(
        [os.path.join(HERE, "submit.sh"), scenario, str(n), *options],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    docs = load(out, f"submit.sh's manifests for N = {n}")
    merge = [d for d in docs if d["metadata"]["name"].startswith("oddsmith-merge-")]
    return [d for d in docs if d not in merge], merge


def play(binary, c, m, n, options, tmp):
    """Runs the Jobs' scripts here: every completion index of the shard container, then the
    merge container; returns the merge's stdout (the Job's log)."""
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    os.symlink(os.path.abspath(binary), os.path.join(bindir, "oddsmith"))
    scenario_dir = os.path.join(tmp, "scenario")
    os.makedirs(scenario_dir)
    shutil.copy(os.path.join(ROOT, "scenarios", "draft", "reference-duels.toml"), os.path.join(scenario_dir, "scenario.toml"))
    local = {"work": os.path.join(tmp, "work"), "scenario": scenario_dir}
    os.makedirs(local["work"])

    def script_of(container):
        s = container["args"][0]
        for mnt in container["volumeMounts"]:
            s = s.replace(mnt["mountPath"] + "/", local[mnt["name"]] + "/")
        return s

    def env(container, **extra):
        e = {"PATH": bindir + ":/usr/bin:/bin", "THREADS": "1"}
        e.update({k: v for k, v in env_of(container).items() if v is not None})
        e.update(extra)
        return e

    # Pod 0 runs twice, as a retried pod would: it replaces its own shard file.
    for i in [*range(n), 0]:
        r = subprocess.run(["sh", "-c", script_of(c)], env=env(c, JOB_COMPLETION_INDEX=str(i)), capture_output=True, text=True)
        check(r.returncode == 0, f"shard pod {i} failed: {r.stderr}")
    shards = os.path.join(local["work"], env_of(m)["RUN"], "shards")
    names = sorted(os.listdir(shards))
    check(names == sorted(f"shard-{k}-of-{n}.json" for k in range(1, n + 1)), f"the shards folder holds {names}")
    r = subprocess.run(["sh", "-c", script_of(m)], env=env(m), capture_output=True, text=True)
    check(r.returncode == 0, f"the merge pod failed: {r.stderr}")
    check(r.stderr == "", f"the merge pod wrote to stderr (its log must be the JSON alone): {r.stderr}")
    return r.stdout, os.path.join(local["work"], env_of(m)["RUN"], "report")


def main():
    with open(os.path.join(HERE, "shards.yaml")) as f:
        shards = load(f.read(), "shards.yaml")
    with open(os.path.join(HERE, "merge.yaml")) as f:
        merge = load(f.read(), "merge.yaml")
    check_pair(shards, merge, 16, "as committed")
    options = ["--trials", "20000", "--seed", "9", "--no-exact"]
    n = 3
    c, m = check_pair(*rendered(n, 2, options), n, f"rendered for N = {n}")
    check(env_of(c)["RUN_OPTIONS"] == " ".join(options), "submit.sh did not set RUN_OPTIONS")
    print(f"ok: shards.yaml and merge.yaml parse and agree, as committed (N = 16) and rendered (N = {n})")
    if len(sys.argv) < 2:
        print("(no oddsmith binary given: the Jobs were not played)")
        return
    binary = sys.argv[1]
    check(os.access(binary, os.X_OK), f"no oddsmith binary at {binary}")
    tmp = tempfile.mkdtemp(prefix="oddsmith-k8s.")
    try:
        log, report = play(binary, c, m, n, options, tmp)
        single = os.path.join(tmp, "single")
        scenario = os.path.join(ROOT, "scenarios", "draft", "reference-duels.toml")
        r = subprocess.run([binary, "run", scenario, *options, "--json", "--out", single], capture_output=True, text=True)
        check(r.returncode == 0, f"the single run failed: {r.stderr}")
        check(log == r.stdout, "the merge Job's log differs from the single run's JSON")
        csvs = sorted(f for f in os.listdir(os.path.join(single, "tables")) if f.endswith(".csv"))
        check(csvs, "the single run wrote no CSV table")
        for f in csvs:
            with open(os.path.join(single, "tables", f), "rb") as a, open(os.path.join(report, "tables", f), "rb") as b:
                check(a.read() == b.read(), f"tables/{f} differs from the single run's")
        print(f"ok: the Jobs played here ({n} shard pods, then the merge pod): the log and {len(csvs)} CSV tables equal the single run's, byte for byte")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
