//! The `ibcc` command line as scripts use it: the JSON document's contract, exit status 2 with a message naming the
//! problem for bad input, presets round-tripping through `run`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ibcc(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ibcc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ibcc runs");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn short_preset(name: &str) -> String {
    let out = ibcc(&["preset", name], None);
    assert!(out.status.success());
    let mut s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    s["duration_ns"] = 5_000_000.into();
    s["measure"]["from_ns"] = 1_000_000.into();
    s.to_string()
}

#[test]
fn run_json_has_the_documented_fields() {
    let out = ibcc(&["run", "-", "--json"], Some(&short_preset("infocom03-fig4b")));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let link = &r["links"][0];
    for key in ["id", "from", "to", "utilization"] {
        assert!(!link[key].is_null(), "links[].{key}");
    }
    assert!(link["id"].as_str().unwrap().contains("->"));
    let flow = &r["flows"][0];
    for key in ["id", "group", "src", "dst", "throughput_fraction", "marks", "mean_delay_ns"] {
        assert!(flow.get(key).is_some(), "flows[].{key}");
    }
    let group = &r["groups"][0];
    for key in ["name", "flows", "throughput_fraction", "jain_index", "marks", "mean_delay_ns"] {
        assert!(!group[key].is_null(), "groups[].{key}");
    }
    for key in ["injected_packets", "delivered_packets", "in_flight_packets", "dropped_packets", "marked_packets"] {
        assert!(r["totals"][key].is_u64(), "totals.{key}");
    }
    assert_eq!(r["totals"]["dropped_packets"], 0);
    assert!(r["events"].as_u64().unwrap() > 1000);
    // The totals agree with the flows' own counts (counted separately, as packets leave and reach hosts).
    let t = &r["totals"];
    let flows = r["flows"].as_array().unwrap();
    let sum = |key: &str| flows.iter().map(|f| f[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(t["injected_packets"].as_u64().unwrap(), sum("injected_packets"));
    assert_eq!(t["delivered_packets"].as_u64().unwrap(), sum("delivered_packets"));
    assert!(t["acks_delivered"].as_u64().unwrap() <= t["delivered_packets"].as_u64().unwrap(), "an ACK per delivery");
}

#[test]
fn every_preset_is_listed_and_runs() {
    let out = ibcc(&["presets"], None);
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(list.lines().count() >= 9);
    for name in list.lines().map(|l| l.split_whitespace().next().unwrap()) {
        let out = ibcc(&["run", "-"], Some(&short_preset(name)));
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("dropped 0"), "{name}");
    }
    // A run that stops before its measuring starts (here at its deadlock) says so, with no table of 0% for an
    // interval it never reached.
    let out = String::from_utf8(ibcc(&["run", "-"], Some(&short_preset("ring6-deadlock"))).stdout).unwrap();
    assert!(out.contains("nothing measured: the run stopped at 0.500 ms, and measuring starts at 1.000 ms"), "{out}");
    assert!(!out.contains("links (data utilization"), "{out}");
}

/// A file that cannot be read or written is not a refused input: exit status 1, naming the file.
#[test]
fn io_failures_exit_1_naming_the_file() {
    let out = ibcc(&["run", "/nonexistent/scenario.json"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/scenario.json"));
    let out = ibcc(&["figures", "/dev/null/figures"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/dev/null/figures"));
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let cases: [(&[&str], Option<&str>, &str); 5] = [
        (&["run", "-"], Some("{not json"), "line 1"),
        (&["run", "-"], Some(r#"{"format":"ibcc-scenario","version":7,"duration_ns":1,"nodes":[]}"#), "version 7"),
        (&["preset", "no-such-preset"], None, "infocom03-fig2"),
        (&["sweep", "-", "--out", "/tmp", "--shard", "4/4"], None, "0 <= I < N"),
        (&["run", "preset:infocom03-fig2", "--measure-from-ns", "200000000"], None, "measure.from_ns"),
    ];
    for (args, stdin, needle) in cases {
        let out = ibcc(args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn opensm_export_then_import_restores_the_settings() {
    let out = ibcc(&["opensm", "export", "preset:a10-two-switch"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conf = String::from_utf8(out.stdout).unwrap();
    assert!(conf.contains("cc_sw_cong_setting_threshold 0xf") && conf.contains("cc_cct 0:0,"), "{conf}");
    let edited = conf.replace("cc_sw_cong_setting_threshold 0xf", "cc_sw_cong_setting_threshold 0x9");
    let path = std::env::temp_dir().join(format!("ibcc-opensm-{}.conf", std::process::id()));
    std::fs::write(&path, edited).unwrap();
    let out = ibcc(&["opensm", "import", path.to_str().unwrap(), "preset:a10-two-switch"], None);
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["ib_cc"]["threshold"], 9);
    let out = ibcc(&["opensm", "export", "preset:infocom03-fig2"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no ib_cc block"));
}

#[test]
fn share_links_carry_a_scenario_to_the_same_results() {
    let out = ibcc(&["link", "preset:infocom03-fig3b", "--plot", "buffers"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let url = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:8080/#s=1."), "{url}");
    let out = ibcc(&["unlink", &url], None);
    assert!(out.status.success());
    let preset = ibcc(&["preset", "infocom03-fig3b"], None);
    assert_eq!(out.stdout, preset.stdout, "the link holds exactly the preset");
    let short = short_preset("infocom03-fig3b");
    let direct = ibcc(&["run", "-", "--json"], Some(&short));
    let link = String::from_utf8(ibcc(&["link", "-"], Some(&short)).stdout).unwrap();
    let via_link = ibcc(&["run", link.trim(), "--json"], None);
    assert!(via_link.status.success(), "{}", String::from_utf8_lossy(&via_link.stderr));
    assert_eq!(direct.stdout, via_link.stdout);
    let bad = ibcc(&["run", "http://x/#s=1.AAAA"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("share link: the link is damaged"));
    assert_eq!(ibcc(&["link", "preset:infocom03-fig2", "--plot", "pie"], None).status.code(), Some(2));

    // Published elsewhere: the link and the embed code name that address.
    let base = "https://example.org/courses/net/playground/";
    let elsewhere = String::from_utf8(ibcc(&["link", "preset:infocom03-fig2", "--base", base], None).stdout).unwrap();
    assert!(elsewhere.starts_with(&format!("{base}#s=1.")), "{elsewhere}");
    let embed =
        String::from_utf8(ibcc(&["link", "preset:infocom03-fig2", "--base", base, "--embed"], None).stdout).unwrap();
    assert!(embed.starts_with(&format!("<iframe src=\"{base}?embed#s=1.")), "{embed}");
    let (_, payload) = elsewhere.trim().split_once("#s=").unwrap();
    assert!(embed.contains(payload), "the same scenario");

    // A link that opens its run at a moment: within the run, to the picosecond; past its end, or not a time, refused.
    let at = ibcc(&["link", "preset:infocom03-fig2", "--at-ms", "45.5"], None);
    let url = String::from_utf8(at.stdout).unwrap();
    let (_, payload) = url.trim().split_once("#s=").unwrap();
    assert_eq!(ibcc_core::scenario::share_link::decode(payload).unwrap().at_ps, Some(45_500_000_000));
    let late = ibcc(&["link", "preset:infocom03-fig2", "--at-ms", "100.5"], None);
    assert_eq!(late.status.code(), Some(2));
    let said = String::from_utf8_lossy(&late.stderr);
    assert!(said.contains("opens its run at 100.5 ms, past the run's end at 100 ms"), "{said}");
    for bad in ["-1", "NaN"] {
        let out = ibcc(&["link", "preset:infocom03-fig2", "--at-ms", bad], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn sweeps_run_every_point_shard_merge_and_resume() {
    let dir = std::env::temp_dir().join(format!("ibcc-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("spec.json");
    std::fs::write(
        &spec,
        r#"{"base": "preset:infocom03-fig2", "set": {"duration_ns": 2000000, "measure.from_ns": 1000000},
            "axes": [{"path": "switch.buffer_packets", "range": {"from": 2, "to": 3, "step": 1}}], "seeds": [1, 2],
            "measure": [{"name": "local_rate", "metric": {"kind": "group_rate", "group": "local"}}]}"#,
    )
    .unwrap();
    let whole = dir.join("whole");
    let out = ibcc(&["sweep", spec.to_str().unwrap(), "--out", whole.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(whole.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "a header and a row per point: {csv}");
    assert!(lines[0].starts_with("point,switch.buffer_packets,seed,"), "{}", lines[0]);
    assert!(lines[0].contains("local_rate") && lines[0].contains("A->B.utilization"));
    assert!(lines[1].starts_with("0,2,1,") && lines[4].starts_with("3,3,2,"));
    // Again: nothing left to run.
    let again = ibcc(&["sweep", spec.to_str().unwrap(), "--out", whole.to_str().unwrap()], None);
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 to run (4 already done)"));
    // Another sweep in the same directory is refused, not mixed with this one's rows: other points, another base.
    let other = dir.join("other.json");
    for (text, want) in [
        (
            r#"{"base": "preset:infocom03-fig2", "set": {"duration_ns": 2000000, "measure.from_ns": 1000000},
                "axes": [{"path": "switch.buffer_packets", "values": [4, 3]}], "seeds": [1, 2]}"#,
            "its point 0 has switch.buffer_packets = 2, this one's has 4",
        ),
        (
            r#"{"base": "preset:infocom03-fig2", "set": {"duration_ns": 3000000, "measure.from_ns": 1000000},
                "axes": [{"path": "switch.buffer_packets", "range": {"from": 2, "to": 3, "step": 1}}], "seeds": [1, 2]}"#,
            "another base scenario",
        ),
    ] {
        std::fs::write(&other, text).unwrap();
        let o = ibcc(&["sweep", other.to_str().unwrap(), "--out", whole.to_str().unwrap()], None);
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains(want), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(
        std::fs::read_to_string(whole.join("results.csv")).unwrap(),
        csv,
        "the first sweep's results are intact"
    );
    // Two shards and a merge give the same table.
    let split = dir.join("split");
    for shard in ["0/2", "1/2"] {
        let o = ibcc(
            &["sweep", spec.to_str().unwrap(), "--out", split.to_str().unwrap(), "--shard", shard, "--jobs", "1"],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(ibcc(&["merge", split.to_str().unwrap()], None).status.success());
    assert_eq!(std::fs::read_to_string(split.join("results.csv")).unwrap(), csv, "deterministic, whatever the split");
    // A bad axis value is refused before anything runs, naming the point.
    std::fs::write(
        &spec,
        r#"{"base": "preset:infocom03-fig2", "axes": [{"path": "switch.buffer_packets", "values": [0]}]}"#,
    )
    .unwrap();
    let bad = ibcc(&["sweep", spec.to_str().unwrap(), "--out", dir.join("bad").to_str().unwrap()], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("point 0"), "{}", String::from_utf8_lossy(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn figures_regenerates_every_listed_figure_with_a_report() {
    let dir = std::env::temp_dir().join(format!("ibcc-figures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Short long-runs and a small GPCNeT: this checks that every figure is made, not the papers' numbers
    // (core/tests/reproduction.rs, docs/gpcnet.md).
    let gpcnet = r#"{"rings": 1, "latency_iterations": 5, "bandwidth_iterations": 1, "allreduce_iterations": 5}"#;
    let args = ["figures", dir.to_str().unwrap(), "--long-ms", "10", "--gpcnet-ppn", "1", "--gpcnet-config", gpcnet];
    let out = ibcc(&args, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut names = vec![];
    for f in
        ["2", "3a", "3b", "3c", "3d", "4a", "4b", "5", "6-root", "6-isl", "6-fairness", "7a-static", "7a-dynamic", "7b"]
    {
        names.push(format!("infocom03-fig{f}"));
    }
    for f in ["3a", "3b", "3c", "3d", "4a", "4b"] {
        names.push(format!("globecom02-fig{f}"));
    }
    for f in ["1", "3", "4", "5"] {
        names.push(format!("pft-fig{f}"));
    }
    for n in &names {
        let svg = std::fs::read_to_string(dir.join(format!("{n}.svg"))).unwrap_or_else(|e| panic!("{n}.svg: {e}"));
        assert!(svg.starts_with("<svg") && svg.contains("<polyline"), "{n}.svg has curves");
        let csv = std::fs::read_to_string(dir.join(format!("{n}.csv"))).unwrap();
        assert!(csv.lines().count() > 2, "{n}.csv has data");
        same_width(&csv, n);
    }
    // Beyond the PFT paper: the mechanisms table, every mechanism a row (their names hold commas: quoted).
    let table = std::fs::read_to_string(dir.join("gpcnet-mechanisms.csv")).unwrap();
    same_width(&table, "gpcnet-mechanisms.csv");
    assert_eq!(table.lines().count(), 1 + ibcc_core::presets::gpcnet_mechanisms::mechanisms(&Default::default()).len());
    assert!(table.contains("\n\"HP root-VL, RC\","), "{table}");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for title in [
        "INFOCOM'03 Fig. 2",
        "Fig. 5",
        "Fig. 6",
        "Fig. 7a",
        "Fig. 7b",
        "Globecom'02 Fig. 3c",
        "Globecom'02 Fig. 4",
        "PFT (IFIP'21) Fig. 1",
        "PFT (IFIP'21) Figs. 3-5",
        "Beyond the PFT paper",
    ] {
        assert!(report.contains(title), "report.md covers {title}");
    }
    assert!(report.contains("**Paper:**") && report.contains("**Ours:**"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every record of `csv` has its header's number of fields (RFC 4180: a quoted field may hold commas).
fn same_width(csv: &str, name: &str) {
    let fields = |line: &str| {
        let (mut n, mut quoted) = (1, false);
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => n += 1,
                _ => {}
            }
        }
        n
    };
    let width = fields(csv.lines().next().unwrap_or_default());
    for line in csv.lines() {
        assert_eq!(fields(line), width, "{name}: {line}");
    }
}

#[test]
fn run_series_gives_the_rates_over_time() {
    // INFOCOM'03 Fig. 2: the victim flow runs from 40 to 60 ms, so its rate is zero before and positive during.
    let out = ibcc(&["run", "preset:infocom03-fig2", "--series"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "time_ns");
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (root, victim) = (col("B->BC"), col("victim flows"));
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 1001, "100 ms in 100 us samples, both ends included");
    let at = |ms: f64| rows.iter().find(|r| r[0] == ms * 1e6).unwrap();
    assert!(at(20.0)[victim] == 0.0 && at(50.0)[victim] > 0.05, "{} {}", at(20.0)[victim], at(50.0)[victim]);
    assert!(at(50.0)[root] > 0.95, "the root link is saturated");
    // The same series inside the JSON document.
    let out = ibcc(&["run", "preset:infocom03-fig2", "--series", "--json"], None);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["series"]["time_ns"].as_array().unwrap().len(), 1001);
    let json_victim = doc["series"]["rates"]["victim flows"][500].as_f64().unwrap();
    assert!((json_victim - at(50.0)[victim]).abs() < 1e-6);
    // A group name with a comma and a quote is one quoted CSV field.
    let mut s: serde_json::Value = serde_json::from_str(&short_preset("infocom03-fig2")).unwrap();
    s["flows"][0]["group"] = "a,\"b\"".into();
    let out = ibcc(&["run", "-", "--series"], Some(&s.to_string()));
    let header = String::from_utf8(out.stdout).unwrap().lines().next().unwrap().to_owned();
    assert!(header.contains(",\"a,\"\"b\"\" flows\","), "{header}");
    // The CSV has no room for --baseline's control factor: say so rather than drop it.
    let out = ibcc(&["run", "preset:infocom03-fig2", "--series", "--baseline"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// A scratch file holding `text`, named for the test that wrote it; removed when the test is done with it.
fn scratch(name: &str, text: &str) -> Scratch {
    let path = std::env::temp_dir().join(format!("ibcc-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    Scratch(path)
}

struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn fabric_gen_route_check_and_path_work_together() {
    let out = ibcc(&["fabric", "gen", "fattree", "4"], None);
    assert!(out.status.success());
    let topo = scratch("ft4.topo", &String::from_utf8(out.stdout).unwrap());
    let topo = topo.to_str().unwrap();
    let out = ibcc(&["fabric", "route", topo, "--engine", "updn"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump = String::from_utf8(out.stdout).unwrap();
    assert_eq!(dump.matches("Unicast lids [0-36]").count(), 20, "a table for each of the 20 switches");
    assert!(String::from_utf8_lossy(&out.stderr).contains("updn: 4 root switches"));
    // The tables written and read back route as the engine did.
    let tables = scratch("ft4.lfts", &dump);
    let out = ibcc(&["fabric", "check", topo, "--tables", tables.to_str().unwrap()], None);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("240 of 240 CA-to-CA pairs arrive") && report.contains("no cycle"), "{report}");
    let out = ibcc(&["fabric", "path", topo, "h-0-0-0", "h-3-1-1"], None);
    let path = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = path.lines().collect();
    assert!(
        lines[0].starts_with("From ca {0x0000000000100000} portnum 1") && lines[0].ends_with("\"h-0-0-0\""),
        "{path}"
    );
    assert_eq!(lines.len(), 8, "From, six ports entered (edge, aggregation, core, aggregation, edge, CA), To: {path}");
    assert!(lines[7].starts_with("To ca") && lines[7].ends_with("\"h-3-1-1\""), "{path}");
    // A ring's shortest paths have a dependency cycle, which check names.
    let out = ibcc(&["fabric", "gen", "ring", "6"], None);
    let ring = scratch("ring6.topo", &String::from_utf8(out.stdout).unwrap());
    let out = ibcc(&["fabric", "check", ring.to_str().unwrap()], None);
    assert!(String::from_utf8(out.stdout).unwrap().contains("a cycle of 6: \"sw-0\" port 2 -> \"sw-1\" port 2"));
    // The PFT paper's 120 nodes: 10 leaves of 12 under 6 spines, two cables each.
    let out = ibcc(&["fabric", "gen", "leafspine", "10", "12", "6", "--cables", "2"], None);
    let pft = scratch("leafspine.topo", &String::from_utf8(out.stdout).unwrap());
    let out = ibcc(&["fabric", "check", pft.to_str().unwrap(), "--engine", "ftree"], None);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("16 switches, 120 CA ports") && report.contains("14280 of 14280"), "{report}");
}

#[test]
fn bad_fabric_input_exits_2_naming_the_file_and_line() {
    let bad = scratch("bad.topo", "Switch 8 \"S1\"\n[1] \"H1\"[1]\n[2] \"nowhere\"[1]\nCa 1 \"H1\"\n[1] \"S1\"[1]\n");
    let out = ibcc(&["fabric", "route", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.topo: line 3: \"nowhere\" is not a node"), "{err}");
    let good = scratch("good.topo", "Switch 8 \"S1\"\n[1] \"H1\"[1]\nCa 1 \"H1\"\n[1] \"S1\"[1]\n");
    let good = good.to_str().unwrap();
    let tables =
        scratch("bad.lfts", "Unicast lids [0-2] of switch Lid 1 guid 0x0000000000200000 ('S1'):\n0x0001 009\n");
    let out = ibcc(&["fabric", "check", good, "--tables", tables.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2: port 9"));
    for (args, says) in [
        (vec!["fabric", "gen", "fattree", "5"], "even number"),
        (vec!["fabric", "gen", "ring", "6", "--link", "3xQDR"], "a width and speed"),
        (vec!["fabric", "gen", "leafspine", "200", "12", "6", "--cables", "2"], "a switch has at most 254"),
        (vec!["fabric", "route", good, "--engine", "lash"], "the engines are"),
        (vec!["fabric", "path", good, "H1", "H9"], "\"H9\": no addressed port"),
        (vec!["fabric", "route", good, "--sm", "H9"], "\"H9\" is not in the fabric"),
    ] {
        let out = ibcc(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = ibcc(&["fabric", "route", "/no/such/file.topo"], None);
    assert_eq!(out.status.code(), Some(1));
}

/// Traffic patterns on a fabric file and as a scenario's flows. Two switches joined by two cables, four hosts on
/// each: shift by four sends every host across, and minhop puts two routes on each cable (half a link a flow). On
/// the fat-tree preset, shift by eight crosses the core: the playground's old routing sends the flows of a pod up
/// the same uplinks, minhop spreads them.
#[test]
fn traffic_patterns_load_fabrics_and_become_flows() {
    let out = ibcc(&["fabric", "gen", "parallel", "2", "4"], None);
    let two = scratch("parallel.topo", &String::from_utf8(out.stdout).unwrap());
    let out = ibcc(&["fabric", "load", two.to_str().unwrap(), "--pattern", "shift:4"], None);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("pattern shift:4 among 8 CA ports"), "{report}");
    assert!(report.contains("most routes on one channel: 2\n") && report.contains("averaged: 0.5000\n"), "{report}");
    let out = ibcc(&["fabric", "load", two.to_str().unwrap(), "--pattern", "bisection", "--samples", "4"], None);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("4 drawn from seed 1") && report.contains("effective bisection bandwidth"), "{report}");
    let out = ibcc(&["fabric", "load", two.to_str().unwrap(), "--pattern", "shift:8"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("to itself"));

    let share = |engine: &str| {
        let preset = ibcc(&["preset", "fattree4-hotspot"], None);
        let mut s: serde_json::Value = serde_json::from_slice(&preset.stdout).unwrap();
        s["routing"] = serde_json::json!({ "engine": engine });
        let out = ibcc(&["pattern", "-", "--pattern", "shift:8"], Some(&s.to_string()));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let flows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(flows["flows"].as_array().unwrap().len(), 16);
        let err = String::from_utf8(out.stderr).unwrap();
        err.split("share of a link ").nth(1).unwrap().trim().parse::<f64>().unwrap()
    };
    assert_eq!((share("first_listed"), share("minhop")), (0.25, 0.5));
}

/// A fabric's own scenario: `ibcc fabric scenario` embeds the file, a scenario may instead name it (relative to the
/// scenario's folder), flows come from `ibcc pattern`, and the run follows the fabric's tables; a deadlocking
/// routing stops the run and says so.
#[test]
fn a_fabric_file_becomes_a_scenario_that_runs() {
    let out = ibcc(&["fabric", "gen", "fattree", "4", "--link", "4xEDR"], None);
    let topo = scratch("fab.topo", &String::from_utf8(out.stdout).unwrap());
    let out =
        ibcc(&["fabric", "scenario", topo.to_str().unwrap(), "--engine", "ftree", "--duration-ns", "200000"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let embedded = String::from_utf8(out.stdout).unwrap();
    let mut s: serde_json::Value = serde_json::from_str(&embedded).unwrap();
    assert_eq!(s["links"][0]["bandwidth_gbps"], 100.0);
    s["fabric"] = serde_json::json!({ "file": topo.file_name().unwrap().to_str().unwrap() });
    let named = scratch("fab.json", &s.to_string());
    let out = ibcc(&["pattern", named.to_str().unwrap(), "--pattern", "shift:8"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("16 flows among 16 hosts, routed by Ftree: most routes on one link 1"));
    let out = ibcc(&["run", "-"], Some(&String::from_utf8(out.stdout).unwrap()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    s["fabric"] = serde_json::json!({ "file": "nowhere.topo" });
    let missing = scratch("missing.json", &s.to_string());
    let out = ibcc(&["run", missing.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere.topo"));
}

/// `ibcc gpcnet` on a generated fabric file: GPCNeT's table, and `--json` with each canary test's isolated and
/// congested figures and their impact; bad settings exit 2 naming the setting.
#[test]
fn gpcnet_prints_the_congestion_impact_of_a_fabric() {
    let out = ibcc(&["fabric", "gen", "--link", "4xEDR", "twolevel", "8"], None);
    assert!(out.status.success());
    let topo = scratch("gpcnet-twolevel8.topo", &String::from_utf8(out.stdout).unwrap());
    let path = topo.to_str().unwrap();
    let out = ibcc(&["gpcnet", path, "--engine", "ftree"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8(out.stdout).unwrap();
    for line in ["Isolated Network Tests", "RR Two-sided Lat (8 B)", "Congestion Impact Factor", "Multiple Allreduce"] {
        assert!(table.contains(line), "{line}: {table}");
    }
    let out = ibcc(&["gpcnet", path, "--engine", "ftree", "--canary", "latency", "--json", "--ppn", "2"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((r["nodes"].as_u64(), r["canary_nodes"].as_u64()), (Some(32), Some(7)));
    let test = &r["tests"][0];
    assert_eq!(test["canary"], "latency");
    for run in ["isolated", "congested"] {
        for key in ["avg", "p99", "min", "max", "samples"] {
            assert!(test[run]["figures"][key].is_number(), "{run}.figures.{key}");
        }
    }
    assert!(test["impact_avg"].as_f64().unwrap() >= 1.0 && test["impact_p99"].is_number());
    // Without congestion control (no window either) the baseline is the run itself: FC is exactly 1.
    let out = ibcc(&["fabric", "scenario", path, "--engine", "ftree"], None);
    let mut s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    s["source"]["window_packets"] = serde_json::Value::Null;
    let out = ibcc(&["gpcnet", "-", "--canary", "latency,bandwidth", "--baseline", "--json"], Some(&s.to_string()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["control_factor"]["fc"].as_f64(), Some(1.0));
    let out = ibcc(&["gpcnet", path, "--canary", "latency", "--baseline"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = ibcc(&["gpcnet", path, "--ppn", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("processes per node"));
    let out = ibcc(&["gpcnet", path, "--config", "{\"ringz\": 3}"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ringz"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bench_scale_prints_every_size() {
    let out = ibcc(&["bench", "--scale", "--duration-ms", "0.001", "--json"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let hosts: Vec<u64> = rows.iter().map(|r| r["hosts"].as_u64().unwrap()).collect();
    assert_eq!(hosts, [32, 128, 1024, 3456]);
    for r in &rows {
        // Ports: each host's, and k per switch (every port of a fat tree's switches is cabled).
        assert!(r["packet_hops"].as_u64().unwrap() > 0 && r["events_per_hop"].as_f64().unwrap() > 1.0, "{r}");
        for floor in ["queued_per_hop", "bare_wheel_ns_per_hop", "bare_heap_ns_per_hop"] {
            assert!(r[floor].as_f64().is_some_and(|ns| ns > 0.0), "{floor}: {r}");
        }
    }
    assert_eq!(rows[2]["ports"].as_u64(), Some(1024 + 320 * 16));
    // As text, every size's row (each from a process of its own) under one header, and the columns' legend once.
    let out = ibcc(&["bench", "--scale", "--duration-ms", "0.001"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("network ")).count(), 1, "{text}");
    assert_eq!(text.lines().filter(|l| l.contains("-permutation ")).count(), 4, "{text}");
    assert_eq!(text.matches("q/hop: events per hop").count(), 1, "{text}");
    let out = ibcc(&["bench", "--large"], None);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--large goes with"));
    let out = ibcc(&["bench", "--scale", "--hosts", "128", "--duration-ms", "0.001", "--json"], None);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["hosts"].as_u64(), Some(128));
    let out = ibcc(&["bench", "--scale", "--hosts", "100"], None);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no network of 100 hosts; the sizes are 32, 128"));
}

/// A stand-in for htsim in a new folder named after `test`: the folder holds the 32-host hot spot's matrix (20 hosts
/// to host 0, one to host 1) and `sim/`, whose htsim runs and whose log parser prints each sink's cumulative ACKs:
/// sink i has ACKed 10 (i + 1) packets of 2068 bytes at the end, fewer before. Returns the folder and `sim/`.
#[cfg(unix)]
fn fake_htsim(test: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("ibcc-{test}-{}", std::process::id()));
    let sim = dir.join("sim");
    std::fs::create_dir_all(sim.join("datacenter")).unwrap();
    let mut cm = String::from("Nodes 32\nConnections 21\n");
    for h in 4..24 {
        cm += &format!("{h}->0 start 0.000000 size 0\n");
    }
    cm += "24->1 start 0.000000 size 0\n";
    std::fs::write(dir.join("hotspot_victim_32.cm"), cm).unwrap();
    let mut lines = String::new();
    for i in 0..21u64 {
        lines += &format!("echo '0.0001 Type ROCE_SINK ID {} Ev RATE CAck {} Rate 1'\n", 300 + 3 * i, 2068 * (i + 1));
        lines += &format!("echo '0.0002 Type ROCE_SINK ID {} Ev RATE CAck {} Rate 1'\n", 300 + 3 * i, 20680 * (i + 1));
    }
    write_script(&sim.join("datacenter/htsim_roce"), "exit 0\n");
    write_script(&sim.join("parse_output"), &lines);
    (dir, sim)
}

#[cfg(unix)]
fn write_script(path: &std::path::Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `--against-htsim` with a stand-in for htsim. The packet-hops it reports are the parser's bytes over the packet
/// size times each connection's path (4 links on the two-level k=8 tree), sinks taken in the matrix's order.
#[cfg(unix)]
#[test]
fn bench_against_htsim_pairs_the_runs_and_reads_htsim_s_sinks() {
    let (dir, sim) = fake_htsim("htsim-test");
    let (d, s) = (dir.to_str().unwrap(), sim.to_str().unwrap());
    let out = ibcc(&["bench", "--against-htsim", d, "--htsim", s, "--cases", "hs32", "--repeat", "1", "--json"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["htsim_packet_hops"].as_u64(), Some(10 * 231 * 4));
    // Ours: the hot spot's link is saturated for the simulated second (2068-byte packets at 1 GB/s).
    assert!(r["ours_packet_hops"].as_u64().unwrap() >= 483_000 * 4, "{r}");
    assert!(r["ratio"].as_f64().unwrap() > 0.0 && r["bare_ns_per_event"].as_f64().unwrap() > 0.0);
    assert!(r["bare_wheel_ns_per_event"].as_f64().unwrap() > 0.0, "{r}");
    let out = ibcc(&["bench", "--against-htsim", d, "--htsim", s, "--cases", "hs33"], None);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no case \"hs33\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--against-htsim --instructions` with stand-ins for htsim and valgrind: this "valgrind" runs its program and
/// says it counted 12 million instructions for htsim's run and 2 million for its run of a microsecond, 9 million
/// for our run of the case and 1 million for ours that only builds it. Each side is its run less its set-up (10 and
/// 8 million); the ratio is of instructions per packet-hop.
#[cfg(unix)]
#[test]
fn bench_instructions_counts_each_side_without_building_our_run() {
    let (dir, sim) = fake_htsim("instructions-test");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    write_script(
        &bin.join("valgrind"),
        "shift 3\n\"$@\" || exit $?\ncase \"$*\" in\n  *--setup-only*) n=1,000,000 ;;\n  *--ours-only*) n=9,000,000 ;;\n  \
         *\"-end 1 -nodes\"*) n=2,000,000 ;;\n  *) n=12,000,000 ;;\nesac\necho \"==1== I   refs:      $n\" >&2\n",
    );
    let (d, s) = (dir.to_str().unwrap(), sim.to_str().unwrap());
    let run = |path: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_ibcc"))
            .args(["bench", "--against-htsim", d, "--htsim", s, "--cases", "hs32", "--instructions", "--json"])
            .env("PATH", path)
            .output()
            .unwrap()
    };
    let out = run(&bin);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["ours_instructions"].as_u64(), Some(8_000_000), "{r}");
    assert_eq!(r["htsim_instructions"].as_u64(), Some(10_000_000), "{r}");
    assert_eq!(r["htsim_packet_hops"].as_u64(), Some(10 * 231 * 4));
    let ours_hops = r["ours_packet_hops"].as_u64().unwrap();
    assert!(ours_hops >= 483_000 * 4, "{r}");
    assert!(r["ours_events"].as_u64().unwrap() > ours_hops, "{r}");
    let ratio = (10e6 / (10.0 * 231.0 * 4.0)) / (8e6 / ours_hops as f64);
    assert!((r["ratio"].as_f64().unwrap() - ratio).abs() < 1e-9 * ratio, "{r}");
    // Without valgrind, the error says what is missing.
    let out = run(&dir.join("nowhere"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("valgrind"), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
