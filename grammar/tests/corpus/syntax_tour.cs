#!/usr/bin/env cs-lite
// A tour of the cs-lite syntax: every construct the parser accepts, in one file.
#nullable enable
#region usings
global using System.Text;
using System;
using static System.Math;
using Dict = System.Collections.Generic.Dictionary<string, int>;
#endregion
[assembly: System.Reflection.AssemblyTitle("tour")]

// ---- top-level statements ----
var numbers = new List<int> { 1, 2, 3 };
int total = 0, count;
const int K = 1;
foreach (var n in numbers) total += n;
Console.WriteLine($"total={total,-5:F2} {{braces}} {(total > 3 ? "big" : "small")} {Max(1, 2)}");
await Task.Delay(1);
static int Twice(int x) => x * 2;
async Task<int> LocalAsync() { await Task.Yield(); return 1; }
[Obsolete] void Attributed() { }
int Generic<T>(T value) where T : notnull => 0;
(int a, string b) pair = (1, "x");
var (p, q) = pair;
(p, total) = (total, p);
ref int r = ref total;
using var disposable = new MemoryStream();
await using var asyncDisposable = new MemoryStream();
if (args.Length > 0) return;
return;

namespace Tour.Inner
{
    using System.Threading;

    public interface IShape<in TIn, out TOut> where TIn : class?
    {
        double Area { get; }
        TOut Convert(TIn input);
        void Describe() => Console.WriteLine("shape");
    }

    [Serializable, Flags]
    public enum Color : byte { Red = 1, [Obsolete] Green = 2, Blue = Red | Green, }

    public abstract class Shape : IComparable<Shape>
    {
        protected Shape(string name) : this(name, 0) { }
        protected Shape(string name, int id) { Name = name; Id = id; }
        static Shape() { }
        ~Shape() { }
        public string Name { get; init; }
        public int Id { get; private set; } = 5;
        public required string Tag { get; set; }
        public abstract double Area { get; }
        public virtual string Describe() => $"{Name}: {Area:F1}";
        public int CompareTo(Shape? other) => Area.CompareTo(other?.Area ?? 0);
        int IComparable<Shape>.CompareTo(Shape? other) => 0;
        public static Shape operator +(Shape a, Shape b) => a;
        public static Shape operator -(Shape a) => a;
        public static bool operator ==(Shape? a, Shape? b) => ReferenceEquals(a, b);
        public static bool operator !=(Shape? a, Shape? b) => !(a == b);
        public static bool operator true(Shape s) => true;
        public static bool operator false(Shape s) => false;
        public static Shape operator >>(Shape s, int n) => s;
        public static implicit operator string(Shape s) => s.Name;
        public static explicit operator int(Shape s) => s.Id;
        public override bool Equals(object? o) => base.Equals(o);
        public override int GetHashCode() => 0;
        public int this[int i] { get => i; set { } }
        public event EventHandler? Changed;
        public event EventHandler Custom { add { } remove { } }
        private readonly int[] _data = { 1, 2, 3 };
        private static volatile int s_counter;
        internal protected const double Pi = 3.14, E = 2.71;
        [return: NotNull] public extern static int Native(int x);
        public partial class Nested<T> where T : struct, IComparable<T>, new() { }
        public delegate void Handler(object sender, EventArgs e);
        private unsafe void Unsafe() { }
        public void Method<T, U>([In] T t, ref int a, out int b, in int c, params int[] rest) where U : class, new()
        {
            b = 0;
        }
        public void Extension(this string s, int optional = 5, string? name = null) { }
    }

    public sealed class Circle(double radius) : Shape("circle")
    {
        public override double Area => PI * radius * radius;
    }

    public record Point(int X, int Y);
    public record struct Size(int W, int H) { public int Area => W * H; }
    public readonly record struct Id(Guid Value);
    public record class Person(string Name) : IComparable<Person>
    {
        public int CompareTo(Person? other) => 0;
    }
    public struct Vector { public double X, Y; public Vector(double x, double y) { X = x; Y = y; } }
    file class Hidden { }
    public static partial class Extensions { }
    public delegate TResult Func2<in T, out TResult>(T arg);

    class Statements
    {
        async Task<int> Run(object o, int[] xs, List<(int, string)> pairs, CancellationToken ct)
        {
            int a = 1, b;
            b = a++ + ++a - a-- - --a;
            var list = new List<List<int>>();
            var dict = new Dictionary<string, List<int>> { ["a"] = new() { 1 } };
            if (a > b) { } else if (a < b) a = b; else { }
            if (a == 1) if (b == 2) a = 3; else b = 4;
            while (a < 10) a++;
            do { a--; } while (a > 0);
            for (int i = 0, j = 10; i < j; i++, j--) { continue; }
            for (;;) { break; }
            for (a = 0; a < 3; a++) ;
            foreach (int x in xs) { }
            foreach ((int n, string s) in pairs) { }
            foreach (var (n, s) in pairs) { }
            await foreach (var item in Stream()) { }
            switch (o)
            {
                case int n when n > 0:
                case long:
                    break;
                case string { Length: > 3 } s:
                    return s.Length;
                case null:
                    goto default;
                case (1, 2):
                    goto case 3;
                default:
                    break;
            }
            label: a++;
            if (a < 5) goto label;
            try { throw new InvalidOperationException("x"); }
            catch (InvalidOperationException e) when (e.Message != "") { throw; }
            catch (Exception) { }
            catch { }
            finally { }
            try { } finally { }
            using (var f = new MemoryStream()) { }
            using (new MemoryStream()) ;
            lock (this) { }
            checked { a = int.MaxValue + 1; }
            unchecked { a = (int)uint.MaxValue; }
            return await Task.FromResult(a);
        }

        IEnumerable<int> Stream2() { yield return 1; yield break; }
        async IAsyncEnumerable<int> Stream() { await Task.Yield(); yield return 1; }

        void Expressions(object o, int[] arr, string? s, List<int> xs, Func<int, int> f)
        {
            var x = 1 + 2 * 3 - 4 / 5 % 6;
            var sh = 1 << 2 >> 1 >>> 1;
            x <<= 1; x >>= 1; x >>>= 1; x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x &= 1; x |= 2; x ^= 3;
            s ??= "default";
            bool c = x < 3 && x > 1 || !(x <= 0) && x >= -1 && x != 2 && x == 3;
            var bits = (x & 1) | (x ^ 2) | ~x;
            var cond = c ? 1 : x > 2 ? 2 : 3;
            var coalesce = s ?? o?.ToString() ?? throw new ArgumentNullException(nameof(s));
            var len = s?.Length ?? 0;
            var first = arr?[0];
            var forgiven = s!.Length;
            var idx = arr[^1];
            var slice = arr[1..^1];
            var all = arr[..];
            var from = arr[2..];
            var to = arr[..2];
            Range rng = ..;
            var cast = (double)x;
            var neg = (int)-1;
            var paren = (x) - 1;
            var nullableCast = (int?)null;
            var arrayCast = (object[])new object[0];
            var genericCast = (List<int>)o;
            var tupleCast = ((int, int))o;
            var isType = o is string;
            var isDecl = o is string str && str.Length > 0;
            var isGeneric = o is List<int> l && l.Count > 0;
            var isNot = o is not null;
            var isRel = x is > 5 and < 10 or 42;
            var isProp = o is string { Length: > 0 and < 10 } t2;
            var isPos = o is (1, 2) or (_, 3);
            var isList = arr is [1, .., var last] && last > 0;
            var isVar = o is var anything;
            var asType = o as string;
            var sw = x switch
            {
                1 => "one",
                > 5 and < 10 => "mid",
                int n when n < 0 => "neg",
                _ => throw new Exception(),
            };
            var sw2 = o switch { string str2 when str2.Length > 0 => str2, null => "", _ => "z" };
            var point = new Point(1, 2);
            var moved = point with { X = 5 };
            Func<int, int> sq = y => y * y;
            Func<int, int, int> add = (y, z) => y + z;
            Func<int, string, string> typed = (int y, string z) => z + y;
            Func<int> none = () => 42;
            Func<Task> asyncLambda = async () => await Task.Delay(1);
            Func<int, int> stat = static y => y;
            Action<int, int> discards = (_, _) => { };
            Func<int, int> single = _ => 0;
            Action block = () => { Console.WriteLine(); };
            Func<int, Task<int>> asyncOne = async y => await Task.FromResult(y);
            Func<int, int> anon = delegate (int y) { return y; };
            Action anon2 = delegate { };
            var tuple = (1, "a");
            var named = (x: 1, y: 2);
            var coll = new[] { 1, 2 };
            int[] empty = [];
            int[] spread = [1, 2, ..arr];
            var arr2 = new int[3];
            var arr3 = new int[] { 1, 2 };
            var arr4 = new int[2, 3];
            var arr5 = new int[,] { { 1, 2 }, { 3, 4 } };
            var jagged = new int[3][];
            var anonObj = new { A = 1, x, s!.Length };
            var obj = new Statements { };
            var target = (Statements)new();
            Statements t3 = new() { };
            var nested = new Dictionary<string, List<int>> { { "b", new List<int> { 2 } }, { "c", new() } };
            var indexed = new Dictionary<string, List<int>> { ["c"] = new() { 3 }, ["d"] = { 4 } };
            var ty = typeof(List<int>);
            var open = typeof(Dictionary<,>);
            var open1 = typeof(List<>);
            var def = default(int);
            int def2 = default;
            var nm = nameof(Statements.Expressions);
            var sz = sizeof(int);
            var chk = checked(x + 1);
            var unchk = unchecked(x + 1);
            var ok = int.TryParse("1", out var parsed) && int.TryParse("2", out int p2) && int.TryParse("3", out _);
            Swap(ref x, ref x);
            Call(name: "n", value: 1);
            var gen = Make<int>();
            var gen2 = this.Make<List<int>>();
            var cmp = F(x < 3, x > 4);
            var cmp2 = F(G<int, int>(7));
            var literal = 0xFF + 0b1010 + 1_000 + 10u + 10L + 10UL + 10lu;
            var reals = 1.5 + .5 + 1e10 + 1.5e-3 + 2f + 2.5F + 3d + 10M;
            var chars = new[] { 'a', '\'', '\\', '\0', '\n', '\u0041', '\x41' };
            var strs = "a\tb" + @"c""d" + """raw "quoted" text""";
            var raw = """
                multi-line
                  raw
                """;
            var interp = $@"{x}\n" + @$"{x}" + $"""{x}""" + $$"""{"json": {{x}}}""";
            var nestedInterp = $"outer {$"inner {x}"} {f(1)} {xs[0]} {(c ? "t" : "f")} {((Func<int>)(() => 1))()}";
            var aligned = $"{x,5}|{x,-5}|{x:X4}|{x,8:N2}|{DateTime.Now:yyyy-MM-dd HH:mm}";
            var globalName = global::System.Console.Out;
            dynamic dyn = 1;
            nint ni = 0;
            var @class = 1;
            var await = 2;
            var async = 3;
            var yield = 4;
            var when = 5;
            var record = 6;
            var where = 7;
            var value = 8;
            var get = 9;
            var nameof2 = 10;
            var with = 11;
            var and = 12;
            var or = and + when;
            var query = from a2 in arr
                        from b2 in xs
                        let sum = a2 + b2
                        where sum > 2
                        orderby sum descending, a2
                        select new { a2, b2, sum };
            var grouped = from w in xs group w by w % 3 into g orderby g.Key select g.Count();
            var joined = from a3 in arr join b3 in xs on a3 equals b3 into matches select matches;
        }

        static void Swap(ref int a, ref int b) { }
        static void Call(string name, int value) { }
        T Make<T>() => default!;
        static bool F(bool a, bool b) => a;
        static bool F(int a) => true;
        static int G<T, U>(int x) => x;
    }
}
