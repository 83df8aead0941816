//! Compiles the C++ glue in `csrc/` against the installed torch (found through the Python that
//! maturin builds for, `PYO3_PYTHON`) and links it whole, so its static registrations survive.

use std::env;
use std::path::PathBuf;
use std::process::Command;

const PROBE: &str = r#"
import os, torch, torch.utils.cpp_extension as ce
print("version=" + torch.__version__.split("+")[0])
print("abi=" + str(int(torch._C._GLIBCXX_USE_CXX11_ABI)))
for p in ce.include_paths(): print("include=" + p)
for p in ce.library_paths(): print("libdir=" + p)
print("stamp=" + os.path.join(os.path.dirname(torch.__file__), "version.py"))
"#;

fn main() {
    println!("cargo:rerun-if-env-changed=PYO3_PYTHON");
    println!("cargo:rerun-if-changed=csrc");
    let python = env::var("PYO3_PYTHON").unwrap_or_else(|_| "python3".into());
    let output = Command::new(&python)
        .args(["-c", PROBE])
        .current_dir(env::temp_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        output.status.success(),
        "{python} cannot import torch; install torch first (or set PYO3_PYTHON): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("probe output is UTF-8");
    let field = |key: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(&format!("{key}=")))
            .map(str::to_string)
            .collect()
    };
    let version = field("version").remove(0);
    let abi = field("abi").remove(0);
    let minor = version
        .split('.')
        .nth(1)
        .expect("torch version has a minor part")
        .to_string();
    let libdir = field("libdir").remove(0);
    println!("cargo:rerun-if-changed={}", field("stamp").remove(0));
    println!("cargo:rustc-env=MOJO_TORCH_VERSION={version}");

    let mut sources: Vec<PathBuf> = std::fs::read_dir("csrc")
        .expect("csrc exists")
        .map(|e| e.expect("readable csrc").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .collect();
    sources.sort();
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .files(&sources)
        .define("_GLIBCXX_USE_CXX11_ABI", abi.as_str())
        .define("MOJO_TORCH_MINOR", minor.as_str())
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-fvisibility=hidden")
        .link_lib_modifier("+whole-archive");
    for include in field("include") {
        build.flag("-isystem").flag(&include);
    }
    // kineto's headers include each other by bare name (torch >= 2.12's profiler registry).
    if let Some(root) = field("include").first() {
        build.flag("-isystem").flag(format!("{root}/kineto"));
    }
    build.compile("mojo_glue");
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib=c10");
    println!("cargo:rustc-link-lib=dylib=torch_cpu");
    println!("cargo:rustc-link-arg=-Wl,-rpath,$ORIGIN/../torch/lib");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
}
