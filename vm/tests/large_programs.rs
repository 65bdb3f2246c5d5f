//! Large programs compile and run: deeply nested ones (the compiler runs on a deep stack)
//! up to the parser's nesting limit, CS8078 beyond it — never a stack overflow of the VM
//! itself — and expressions with more operands than one instruction holds.

mod support;

use support::run;
use vm::compiler::Lowering;

/// A program whose `Main` runs `body` with `int a = 1` and `static int F(int x)` in scope.
fn program(body: &str) -> String {
    format!("class P {{ static int F(int x) => x + 1; static void Main() {{ int a = 1; {body} }} }}")
}

fn outcome_of(body: &str) -> support::Outcome {
    run("deep.cs", &program(body), &[], &[], Lowering::Runtime)
}

#[test]
fn a_five_thousand_term_sum_compiles_and_runs() {
    let sum = vec!["a"; 5000].join(" + ");
    let o = outcome_of(&format!("System.Console.WriteLine({sum});"));
    assert_eq!((o.exit_code, o.stdout.as_str()), (0, "5000\n"), "{}", o.stderr);
}

#[test]
fn calls_nested_five_thousand_deep_compile_and_run() {
    let calls = format!("{}0{}", "F(".repeat(5000), ")".repeat(5000));
    let o = outcome_of(&format!("System.Console.WriteLine({calls});"));
    assert_eq!((o.exit_code, o.stdout.as_str()), (0, "5000\n"), "{}", o.stderr);
}

#[test]
fn blocks_and_parentheses_nested_five_thousand_deep_compile_and_run() {
    let blocks = format!("{}a++;{}", "{".repeat(5000), "}".repeat(5000));
    let parens = format!("{}a{}", "(".repeat(5000), ")".repeat(5000));
    let o = outcome_of(&format!("{blocks} System.Console.WriteLine({parens});"));
    assert_eq!((o.exit_code, o.stdout.as_str()), (0, "2\n"), "{}", o.stderr);
}

#[test]
fn nesting_beyond_the_limit_is_cs8078_alone() {
    let sum = vec!["a"; 100_000].join(" + ");
    let o = outcome_of(&format!("System.Console.WriteLine({sum});"));
    assert_eq!(o.exit_code, 1);
    let errors: Vec<&str> = o.stderr.lines().filter(|l| l.contains(": error ")).collect();
    assert_eq!(errors.len(), 1, "{}", o.stderr);
    assert!(errors[0].ends_with("error CS8078: An expression is too long or complex to compile"), "{}", errors[0]);
}

#[test]
fn an_interpolated_string_with_seventy_thousand_holes_has_their_length() {
    let holes = "{a}".repeat(70_000);
    let o = outcome_of(&format!("string s = $\"{holes}\"; System.Console.WriteLine(s.Length);"));
    assert_eq!((o.exit_code, o.stdout.as_str()), (0, "70000\n"), "{}", o.stderr);
}

#[test]
fn a_long_concatenation_reads_the_target_before_it_changes() {
    let parts = vec!["s"; 3000].join(" + ");
    let o = outcome_of(&format!("string s = \"ab\"; s = {parts}; System.Console.WriteLine(s.Length);"));
    assert_eq!((o.exit_code, o.stdout.as_str()), (0, "6000\n"), "{}", o.stderr);
}

#[test]
fn a_type_with_more_fields_than_the_instructions_address_is_an_error() {
    let fields: String = (0..70_000).map(|i| format!("public int f{i}; ")).collect();
    let source = format!("class C {{ {fields} }} class P {{ static void Main() {{ var c = new C(); c.f69999 = 5; System.Console.WriteLine(c.f69999); }} }}");
    let o = run("fields.cs", &source, &[], &[], Lowering::Runtime);
    assert_eq!(o.exit_code, 1, "{}", o.stdout);
    assert!(o.stderr.contains("error CSL9002: 'C' has more fields than cs-lite's limit of 65536 per type"), "{}", &o.stderr[..o.stderr.len().min(500)]);
}
