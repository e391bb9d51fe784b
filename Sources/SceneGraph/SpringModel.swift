import RealModule
import SceneGeometry

/// A damped spring m·x'' + c·x' + k·x = 0, solved exactly.
///
/// `x` is the displacement from the spring's target (points) and `v` its rate (points per
/// second). A 2-D spring is two independent axes with the same model. Everything is closed
/// form: ``state(after:displacement:velocity:)`` evaluates the solution at any time, and a
/// ``Propagator`` advances a fixed step by a precomputed 2×2 matrix, so the motion does not
/// depend on the frame rate and no step size is ever unstable.
///
/// Parameters are clamped into a range where every formula stays finite: mass into
/// 1e-6…1e6 (non-positive or non-finite becomes 1), stiffness and damping into 0…1e12 (negative or
/// NaN becomes 0), the rest threshold to ≥ 0. The resolver reports bad values to the user;
/// the clamps only keep the math total.
public struct SpringModel: Hashable, Sendable {
  public let mass: Double
  public let stiffness: Double
  public let damping: Double
  /// How near rest counts as at rest: a distance in points and a speed in points per second.
  public let restThreshold: Double

  /// A spring from its physical constants k (stiffness), c (damping) and m (mass).
  public init(stiffness: Double, damping: Double, mass: Double = 1, restThreshold: Double = 0.5) {
    self.mass = mass.isFinite && mass > 0 ? Self.clamp(mass, 1e-6, 1e6) : 1
    self.stiffness = Self.clamp(stiffness, 0, Self.maximumConstant)
    self.damping = Self.clamp(damping, 0, Self.maximumConstant)
    self.restThreshold = Self.clamp(restThreshold, 0, .infinity)
  }

  /// A spring in UIKit's terms: damping ratio ζ and period T.
  ///
  /// k = 4π²m/T² and c = 2ζ√(km). A period of 0 (or less, or NaN) gives the stiffest spring
  /// the clamps allow; a negative ratio is 0.
  public init(
    dampingRatio: Double, duration: Double, mass: Double = 1, restThreshold: Double = 0.5
  ) {
    let m = mass.isFinite && mass > 0 ? Self.clamp(mass, 1e-6, 1e6) : 1
    let period = duration > 0 ? duration : 0
    let k = Self.clamp(4 * Double.pi * Double.pi * m / (period * period), 0, Self.maximumConstant)
    let zeta = Self.clamp(dampingRatio, 0, .infinity)
    self.init(
      stiffness: k, damping: 2 * zeta * (k * m).squareRoot(), mass: m,
      restThreshold: restThreshold)
  }

  /// A spring in SwiftUI's terms: period T and bounce in −1…1.
  ///
  /// For bounce ≥ 0, ζ = 1 − bounce (0 is critically damped, 1 undamped). For a negative
  /// bounce SwiftUI over-damps with ζ = 1/(1 + bounce), which is continuous at 0 and grows
  /// without bound towards −1; so does this. Bounce outside −1…1 clamps.
  public init(duration: Double, bounce: Double, mass: Double = 1, restThreshold: Double = 0.5) {
    let b = Self.clamp(bounce, -1, 1)
    let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
    self.init(dampingRatio: zeta, duration: duration, mass: mass, restThreshold: restThreshold)
  }

  /// The damping ratio ζ = c / (2√(km)); infinite for a damped spring with no stiffness.
  public var dampingRatio: Double {
    let critical = 2 * (stiffness * mass).squareRoot()
    guard critical > 0 else { return damping > 0 ? .infinity : 0 }
    return damping / critical
  }

  /// The undamped angular frequency ω0 = √(k/m), in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// Whether a displacement and velocity are both within ``restThreshold``.
  ///
  /// Distance is in points and speed in points per second, so one number serves both;
  /// NaN is never at rest.
  public func isAtRest(displacement: Double, velocity: Double) -> Bool {
    abs(displacement) <= restThreshold && abs(velocity) <= restThreshold
  }

  /// Whether a 2D displacement and velocity are within ``restThreshold`` in distance and
  /// in speed (Euclidean: a diagonal spring is judged as one straight along an axis).
  public func isAtRest(displacement: Vector, velocity: Vector) -> Bool {
    let squared = restThreshold * restThreshold
    return displacement.lengthSquared <= squared && velocity.lengthSquared <= squared
  }

  /// The exact state `t` seconds after starting from displacement `x0` and velocity `v0`.
  ///
  /// Time does not run backwards: a negative or NaN `t` is 0. For damped springs a huge `t`
  /// decays to zero (or the smallest subnormals) without overflow.
  public func state(
    after t: Double, displacement x0: Double, velocity v0: Double
  ) -> (displacement: Double, velocity: Double) {
    let m = transition(after: t)
    return (m.a * x0 + m.b * v0, m.c * x0 + m.d * v0)
  }

  /// The exact one-step map for a fixed step `dt` seconds, computed once.
  public func propagator(dt: Double) -> Propagator {
    let m = transition(after: dt)
    return Propagator(dt: dt > 0 ? dt : 0, a: m.a, b: m.b, c: m.c, d: m.d)
  }

  /// The matrix M(t) with (x, v)(t) = M(t) · (x, v)(0).
  ///
  /// With α = c/2m and q = ω0² − α², every regime is
  ///
  ///     x(t) = e^(−αt) [x0 C(t) + (v0 + α x0) S(t)]
  ///     v(t) = e^(−αt) [v0 C(t) − (α v0 + ω0² x0) S(t)]
  ///
  /// where C = cos(√q t) and S = sin(√q t)/√q; cosh and sinh(√−q t)/√−q when q < 0; 1 and
  /// t when q = 0.
  /// C and S are entire functions of z = −q t², so near ζ = 1 they come from their series,
  /// whose first term is the critical formula: the two sides of ζ = 1 meet smoothly instead
  /// of dividing a vanishing sine by a vanishing frequency.
  @usableFromInline
  func transition(after time: Double) -> (a: Double, b: Double, c: Double, d: Double) {
    let t = Self.clamp(time, 0, .greatestFiniteMagnitude)
    let w0sq = stiffness / mass
    let w0 = w0sq.squareRoot()
    let alpha = damping / (2 * mass)
    // Factored rather than w0sq − α², so the difference is exact when the two are close.
    let q = (w0 - alpha) * (w0 + alpha)
    let z = -(q * t) * t

    // Near critical (|ζ − 1| ≤ 1e-9 always lands here before e^(−αt) underflows), and at
    // t = 0, where it gives the identity exactly.
    if abs(z) <= Self.seriesLimit {
      let series = Self.series(z)
      let e = Double.exp(-alpha * t)
      let ec = e * series.c
      let es = (e * t) * series.sOverT
      return (ec + alpha * es, es, -w0sq * es, ec - alpha * es)
    }

    if q > 0 {
      // Under-damped: an exponentially decaying rotation.
      let wd = q.squareRoot()
      let e = Double.exp(-alpha * t)
      // Past about 1e16 periods the rounding of t alone has lost the phase; one that
      // overflows is taken as 0 so the state stays on its orbit instead of becoming NaN.
      let phase = wd * t
      let (sine, cosine) = phase.isFinite ? (Double.sin(phase), Double.cos(phase)) : (0, 1)
      let ec = e * cosine
      let es = e * sine / wd
      return (ec + alpha * es, es, -w0sq * es, ec - alpha * es)
    }

    // Over-damped: two decaying exponentials at rates slow ≤ fast. `slow` is ω0²/fast rather
    // than α − ωd, which cancels for large ζ; e^(−αt)·sinh(ωd t)/ωd is written as
    // −e^(−slow·t)·expm1(−2ωd t)/(2ωd), so only negative arguments are exponentiated and
    // nothing overflows for large t or cancels for small ωd t.
    let wd = (-q).squareRoot()
    let fast = alpha + wd
    let slow = w0sq / fast
    let e1 = Double.exp(-slow * t)
    let e2 = Double.exp(-fast * t)
    let s = e1 * (-Double.expMinusOne(-2 * wd * t)) / (2 * wd)
    return (e1 + slow * s, s, -w0sq * s, e2 - slow * s)
  }

  /// Largest |z| = |q|·t² handled by the series; its truncation error there is below 1e-20.
  static let seriesLimit = 0.01

  /// C = Σ zⁿ/(2n)! and S/t = Σ zⁿ/(2n+1)!, the regime-free forms of cos/cosh and sinc/sinhc.
  @inline(__always)
  static func series(_ z: Double) -> (c: Double, sOverT: Double) {
    // Horner form; each factor is the ratio of consecutive terms.
    let c = 1 + z / 2 * (1 + z / 12 * (1 + z / 30 * (1 + z / 56 * (1 + z / 90 * (1 + z / 132)))))
    let s = 1 + z / 6 * (1 + z / 20 * (1 + z / 42 * (1 + z / 72 * (1 + z / 110 * (1 + z / 156)))))
    return (c, s)
  }

  /// Upper bound for stiffness and damping: ω0 ≤ 1e9 rad/s, far past any frame rate, and
  /// every product in ``transition(after:)`` stays finite.
  static let maximumConstant = 1e12

  /// `x` clamped into `lo...hi`, NaN to `lo`.
  @inline(__always)
  static func clamp(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
    guard x >= lo else { return lo }
    return x <= hi ? x : hi
  }
}

extension SpringModel {
  /// The exact map of a spring over one fixed step: (x, v) ← [[a, b], [c, d]] · (x, v).
  ///
  /// Made once per step size by ``SpringModel/propagator(dt:)``. Because the matrix is the
  /// closed form itself, stepping is exact up to rounding for any stiffness and any `dt`.
  public struct Propagator: Hashable, Sendable {
    /// The step, in seconds.
    public let dt: Double
    public let a: Double
    public let b: Double
    public let c: Double
    public let d: Double

    /// Advances one axis by one step.
    @inlinable @inline(__always)
    public func step(_ x: inout Double, _ v: inout Double) {
      let x0 = x
      x = a * x0 + b * v
      v = c * x0 + d * v
    }

    /// Advances a 2-D displacement and velocity by one step, each axis independently.
    @inlinable @inline(__always)
    public func step2D(_ displacement: inout Vector, _ velocity: inout Vector) {
      step(&displacement.x, &velocity.x)
      step(&displacement.y, &velocity.y)
    }
  }
}
