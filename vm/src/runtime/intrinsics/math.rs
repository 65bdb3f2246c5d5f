//! `System.Math` and `MathF` intrinsics: the libm functions (double and float), rounding, and the IEEE 754 bit-level
//! operations (`BitIncrement`, `ScaleB`, `ILogB`, `CopySign`, `IsNegative`).

use super::numbers::rounding_mode;
use super::support::{arg, int_arg, out_of_range};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::numerics;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Math.Sqrt", func: |_, a| f1(a, f64::sqrt) },
    NativeEntry { name: "Math.Cbrt", func: |_, a| f1(a, f64::cbrt) },
    NativeEntry { name: "Math.Pow", func: |_, a| f2(a, pow) },
    NativeEntry { name: "Math.Exp", func: |_, a| f1(a, f64::exp) },
    NativeEntry { name: "Math.Log", func: |_, a| f1(a, f64::ln) },
    NativeEntry { name: "Math.Log10", func: |_, a| f1(a, f64::log10) },
    NativeEntry { name: "Math.Log2", func: |_, a| f1(a, f64::log2) },
    NativeEntry { name: "Math.Sin", func: |_, a| f1(a, f64::sin) },
    NativeEntry { name: "Math.Cos", func: |_, a| f1(a, f64::cos) },
    NativeEntry { name: "Math.Tan", func: |_, a| f1(a, f64::tan) },
    NativeEntry { name: "Math.Asin", func: |_, a| f1(a, f64::asin) },
    NativeEntry { name: "Math.Acos", func: |_, a| f1(a, f64::acos) },
    NativeEntry { name: "Math.Atan", func: |_, a| f1(a, f64::atan) },
    NativeEntry { name: "Math.Atan2", func: |_, a| f2(a, f64::atan2) },
    NativeEntry { name: "Math.Sinh", func: |_, a| f1(a, f64::sinh) },
    NativeEntry { name: "Math.Cosh", func: |_, a| f1(a, f64::cosh) },
    NativeEntry { name: "Math.Tanh", func: |_, a| f1(a, f64::tanh) },
    NativeEntry { name: "Math.Asinh", func: |_, a| f1(a, asinh) },
    NativeEntry { name: "Math.Acosh", func: |_, a| f1(a, acosh) },
    NativeEntry { name: "Math.Atanh", func: |_, a| f1(a, atanh) },
    NativeEntry { name: "Math.Floor", func: |_, a| f1(a, f64::floor) },
    NativeEntry { name: "Math.Ceiling", func: |_, a| f1(a, f64::ceil) },
    NativeEntry { name: "Math.Truncate", func: |_, a| f1(a, f64::trunc) },
    NativeEntry { name: "Math.CopySign", func: |_, a| f2(a, f64::copysign) },
    NativeEntry { name: "Math.FusedMultiplyAdd", func: fused_multiply_add },
    NativeEntry { name: "Math.BitIncrement", func: |_, a| f1(a, bit_increment) },
    NativeEntry { name: "Math.BitDecrement", func: |_, a| f1(a, bit_decrement) },
    NativeEntry { name: "Math.ScaleB", func: scale_b },
    NativeEntry { name: "Math.ILogB", func: ilog_b },
    NativeEntry { name: "Math.Round", func: math_round },
    NativeEntry { name: "Number.IsNegative", func: is_negative },
    NativeEntry { name: "MathF.Cbrt", func: |_, a| g1(a, f32::cbrt) },
    NativeEntry { name: "MathF.Pow", func: |_, a| g2(a, f32::powf) },
    NativeEntry { name: "MathF.Exp", func: |_, a| g1(a, f32::exp) },
    NativeEntry { name: "MathF.Log", func: |_, a| g1(a, f32::ln) },
    NativeEntry { name: "MathF.Log10", func: |_, a| g1(a, f32::log10) },
    NativeEntry { name: "MathF.Log2", func: |_, a| g1(a, f32::log2) },
    NativeEntry { name: "MathF.Sin", func: |_, a| g1(a, f32::sin) },
    NativeEntry { name: "MathF.Cos", func: |_, a| g1(a, f32::cos) },
    NativeEntry { name: "MathF.Tan", func: |_, a| g1(a, f32::tan) },
    NativeEntry { name: "MathF.Asin", func: |_, a| g1(a, f32::asin) },
    NativeEntry { name: "MathF.Acos", func: |_, a| g1(a, f32::acos) },
    NativeEntry { name: "MathF.Atan", func: |_, a| g1(a, f32::atan) },
    NativeEntry { name: "MathF.Atan2", func: |_, a| g2(a, f32::atan2) },
    NativeEntry { name: "MathF.Sinh", func: |_, a| g1(a, f32::sinh) },
    NativeEntry { name: "MathF.Cosh", func: |_, a| g1(a, f32::cosh) },
    NativeEntry { name: "MathF.Tanh", func: |_, a| g1(a, f32::tanh) },
    NativeEntry { name: "BitConverter.DoubleToInt64Bits", func: |_, a| Ok(Value::I64(f64_arg(a, 0).to_bits() as i64)) },
    NativeEntry { name: "BitConverter.Int64BitsToDouble", func: |_, a| Ok(Value::F64(f64::from_bits(arg(a, 0).as_i64().unwrap_or(0) as u64))) },
    NativeEntry { name: "BitConverter.SingleToInt32Bits", func: |_, a| Ok(Value::I32(f32_arg(a, 0).to_bits() as i32)) },
    NativeEntry { name: "BitConverter.Int32BitsToSingle", func: |_, a| Ok(Value::F32(f32::from_bits(int_arg(a, 0) as u32))) },
];

type R = NativeResult;

fn f64_arg(args: &[Value], i: usize) -> f64 {
    arg(args, i).as_f64().unwrap_or(f64::NAN)
}

fn f32_arg(args: &[Value], i: usize) -> f32 {
    match arg(args, i) {
        Value::F32(f) => f,
        other => other.as_f64().unwrap_or(f64::NAN) as f32,
    }
}

fn f1(args: &[Value], f: fn(f64) -> f64) -> R {
    Ok(Value::F64(f(f64_arg(args, 0))))
}

/// A float function of the C library (`MathF`'s, which .NET calls too).
fn g1(args: &[Value], f: fn(f32) -> f32) -> R {
    Ok(Value::F32(f(f32_arg(args, 0))))
}

fn g2(args: &[Value], f: fn(f32, f32) -> f32) -> R {
    Ok(Value::F32(f(f32_arg(args, 0), f32_arg(args, 1))))
}

fn f2(args: &[Value], f: fn(f64, f64) -> f64) -> R {
    Ok(Value::F64(f(f64_arg(args, 0), f64_arg(args, 1))))
}

/// `Math.Pow` with IEEE's special cases as .NET (C's `pow`) has them.
fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        return 1.0;
    }
    if x == 1.0 {
        return 1.0;
    }
    x.powf(y)
}

// The inverse hyperbolic functions follow fdlibm (as the C library .NET calls does), which
// avoids the overflow and cancellation of the textbook logarithm formulas.

const LN2: f64 = std::f64::consts::LN_2;
const TWO_28: f64 = 268_435_456.0;

fn asinh(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let ax = x.abs();
    if ax < 1.0 / TWO_28 {
        return x;
    }
    let w = if ax > TWO_28 {
        ax.ln() + LN2
    } else if ax > 2.0 {
        (2.0 * ax + 1.0 / ((x * x + 1.0).sqrt() + ax)).ln()
    } else {
        let t = x * x;
        (ax + t / (1.0 + (1.0 + t).sqrt())).ln_1p()
    };
    w.copysign(x)
}

fn acosh(x: f64) -> f64 {
    if x.is_nan() || x < 1.0 {
        return f64::NAN;
    }
    if x >= TWO_28 {
        return if x.is_infinite() { x } else { x.ln() + LN2 };
    }
    if x == 1.0 {
        return 0.0;
    }
    if x > 2.0 {
        return (2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt())).ln();
    }
    let t = x - 1.0;
    (t + (2.0 * t + t * t).sqrt()).ln_1p()
}

fn atanh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() || ax > 1.0 {
        return f64::NAN;
    }
    if ax == 1.0 {
        return f64::INFINITY.copysign(x);
    }
    if ax < 1.0 / TWO_28 {
        return x;
    }
    let t = if ax < 0.5 {
        let t = ax + ax;
        0.5 * (t + t * ax / (1.0 - ax)).ln_1p()
    } else {
        0.5 * ((ax + ax) / (1.0 - ax)).ln_1p()
    };
    t.copysign(x)
}

fn fused_multiply_add(_: &mut Vm, args: &[Value]) -> R {
    Ok(Value::F64(f64_arg(args, 0).mul_add(f64_arg(args, 1), f64_arg(args, 2))))
}

/// The next representable double towards +∞ (NaN and +∞ unchanged, -∞ to `MinValue`).
fn bit_increment(x: f64) -> f64 {
    let bits = x.to_bits() as i64;
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return f64::MIN;
    }
    if bits == i64::MIN {
        return f64::from_bits(1);
    }
    f64::from_bits((if bits < 0 { bits - 1 } else { bits + 1 }) as u64)
}

/// The next representable double towards -∞ (NaN and -∞ unchanged, +∞ to `MaxValue`).
fn bit_decrement(x: f64) -> f64 {
    let bits = x.to_bits() as i64;
    if x.is_nan() || x == f64::NEG_INFINITY {
        return x;
    }
    if x == f64::INFINITY {
        return f64::MAX;
    }
    if bits == 0 {
        return -f64::from_bits(1);
    }
    f64::from_bits((if bits < 0 { bits + 1 } else { bits - 1 }) as u64)
}

/// `x * 2^n` computed exactly, stepping through the exponent range so intermediate powers
/// stay representable (the C library's `scalbn`).
fn scale_b(_: &mut Vm, args: &[Value]) -> R {
    let mut y = f64_arg(args, 0);
    let mut n = int_arg(args, 1);
    let two_1023 = f64::from_bits(0x7FE0_0000_0000_0000);
    let two_m969 = f64::from_bits(0x0360_0000_0000_0000);
    if n > 1023 {
        y *= two_1023;
        n -= 1023;
        if n > 1023 {
            y *= two_1023;
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        y *= two_m969;
        n += 1022 - 53;
        if n < -1022 {
            y *= two_m969;
            n = (n + 1022 - 53).max(-1022);
        }
    }
    Ok(Value::F64(y * f64::from_bits(((0x3FF + n) as u64) << 52)))
}

/// The unbiased binary exponent; `int.MaxValue` for NaN and ±∞, `int.MinValue` for zero.
fn ilog_b(_: &mut Vm, args: &[Value]) -> R {
    let x = f64_arg(args, 0);
    let r = if x.is_nan() || x.is_infinite() {
        i32::MAX
    } else if x == 0.0 {
        i32::MIN
    } else {
        let bits = x.to_bits();
        let exponent = ((bits >> 52) & 0x7FF) as i32;
        if exponent == 0 {
            let mantissa = bits & 0x000F_FFFF_FFFF_FFFF;
            -1011 - mantissa.leading_zeros() as i32
        } else {
            exponent - 1023
        }
    };
    Ok(Value::I32(r))
}

/// `Math.Round(value, digits, mode)`: `digits` in 0..=15 checked before `mode`, as .NET does.
fn math_round(_: &mut Vm, args: &[Value]) -> R {
    let x = f64_arg(args, 0);
    let digits = int_arg(args, 1);
    if !(0..=15).contains(&digits) {
        return Err(out_of_range("digits", "Rounding digits must be between 0 and 15, inclusive."));
    }
    let mode = rounding_mode(arg(args, 2))?;
    Ok(Value::F64(numerics::round_double(x, digits, mode)))
}

/// `double.IsNegative`: the sign bit (set for -0.0 and for the default NaN).
fn is_negative(_: &mut Vm, args: &[Value]) -> R {
    let negative = match arg(args, 0) {
        Value::F32(x) => x.is_sign_negative(),
        v => v.as_f64().is_some_and(f64::is_sign_negative),
    };
    Ok(Value::Bool(negative))
}
