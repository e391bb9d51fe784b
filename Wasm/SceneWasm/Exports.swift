import SceneDiagnostics
import SceneEngine
import SceneGeometry
import SceneGraph
import SceneLoading
import SceneOutputs
import SceneRuntime
import SceneSyntax

// The engine's WebAssembly interface: C functions a page's JavaScript (or node, or
// WasmKit) calls. Text goes in through the input buffer (`scenec_input`) as UTF-8 and
// comes out through the output buffer (`scenec_output`, `scenec_output_length`); numbers
// go as arguments. One scene at a time: a module instance is one page's engine.
//
// Every function returns 0 on success; otherwise the output holds why, as text (a
// scene's diagnostics rendered as `scenec check` renders them, file:line:col and caret).

/// What one instance holds: the buffers, the scene, its live session and its writers.
struct Instance {
  var input = Buffer()
  var output = Buffer()
  var file: SourceFile?
  var graph: SceneGraph?
  var session: LiveSession?
  var context: OutputContext?
  var lines: JSONLinesWriter?
  /// The traces added since the last load, by the name a `replay` step gives.
  var traces: [String: TraceFile] = [:]
}

/// Bytes at an address that stays put until the buffer grows: the host reads and
/// writes them through the module's memory.
struct Buffer {
  var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  var capacity = 1
  var count = 0

  mutating func reserve(_ size: Int) {
    guard size > capacity else { return }
    base.deallocate()
    capacity = max(size, capacity * 2)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    count = 0
  }

  mutating func set(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    if let start = bytes.baseAddress { base.update(from: start, count: bytes.count) }
    count = bytes.count
  }

  mutating func set(_ text: String) {
    var text = text
    text.withUTF8 { set($0) }
  }

  func text(_ length: Int) -> String {
    String(
      decoding: UnsafeBufferPointer(start: base, count: min(max(length, 0), capacity)),
      as: UTF8.self)
  }
}

// A WebAssembly instance runs one thread: nothing else touches it.
nonisolated(unsafe) var instance = Instance()

/// The input buffer, with room for `size` bytes: the host writes text there, then calls
/// the function that reads it with its length.
@_cdecl("scenec_input")
public func scenecInput(_ size: Int32) -> UnsafeMutablePointer<UInt8> {
  instance.input.reserve(Int(max(size, 1)))
  return instance.input.base
}

/// Where the last call's text is, and how long it is.
@_cdecl("scenec_output")
public func scenecOutput() -> UnsafeMutablePointer<UInt8> { instance.output.base }

@_cdecl("scenec_output_length")
public func scenecOutputLength() -> Int32 { Int32(instance.output.count) }

/// Loads the DSL scene in the first `length` bytes of the input, named `scene.scene` in
/// diagnostics, with numbers in text at `precision` decimals; 1 with its diagnostics if
/// it has errors, 2 if the engine refuses it.
@_cdecl("scenec_load")
public func scenecLoad(_ length: Int32, _ precision: Int32) -> Int32 {
  let file = SourceFile(name: "scene.scene", text: instance.input.text(Int(length)))
  let traces = instance.traces
  instance.traces = [:]
  let resolved = SceneLoading.resolve(SceneLoading.read(file, frontEnd: .dsl), traces: traces)
  guard let graph = resolved.graph else {
    instance.output.set(DiagnosticRenderer(files: [file]).render(resolved.diagnostics))
    return 1
  }
  do throws(RuntimeError) {
    instance.session = try LiveSession(graph: graph)
  } catch {
    instance.output.set(DiagnosticRenderer(files: [file]).render(error.diagnostic))
    return 2
  }
  let context = OutputContext(
    graph: graph, precision: Int(min(max(precision, 0), 9)), fps: graph.fps)
  instance.file = file
  instance.graph = graph
  instance.context = context
  instance.lines = JSONLinesWriter(context: context)
  instance.output.set("")
  return 0
}

/// Adds a trace for the next load to bind to the `replay` steps that name it.
///
/// The input holds its name (`nameLength` bytes), then its text (`textLength` bytes, CSV
/// or JSON lines, as a trace file). 1 with the trace's diagnostics (named by the trace's
/// name) when it is not a trace.
@_cdecl("scenec_add_trace")
public func scenecAddTrace(_ nameLength: Int32, _ textLength: Int32) -> Int32 {
  let nameCount = Int(max(nameLength, 0))
  let textCount = Int(max(textLength, 0))
  // Compared apart: their sum could overflow a 32-bit `Int`.
  guard nameCount <= instance.input.capacity, textCount <= instance.input.capacity - nameCount
  else {
    instance.output.set("the input holds fewer bytes than the name and the text")
    return 1
  }
  guard nameCount > 0 else {
    instance.output.set("a trace needs the name its replay steps give")
    return 1
  }
  let name = instance.input.text(nameCount)
  let text = String(
    decoding: UnsafeBufferPointer(start: instance.input.base + nameCount, count: textCount),
    as: UTF8.self)
  do throws(TraceError) {
    instance.traces[name] = try TraceFile.parse(text, name: name)
    return 0
  } catch {
    let file = SourceFile(name: name, text: text)
    instance.output.set(DiagnosticRenderer(files: [file]).render(error.diagnostic))
    return 1
  }
}

/// The whole scripted run as `scenec run` writes it (JSON lines): the scene's gesture
/// from the start, to the scene's end.
@_cdecl("scenec_run_script")
public func scenecRunScript() -> Int32 {
  guard let graph = instance.graph, let context = instance.context else { return noScene() }
  do throws(RuntimeError) {
    var runner = try SceneRunner(graph: graph)
    var writer = JSONLinesWriter(context: context)
    var text = TextBytes(capacity: 1 << 16)
    while let frame = try runner.nextFrame() { writer.append(frame, to: &text) }
    instance.output.set(text.bytes)
    return 0
  } catch {
    return failed(error)
  }
}

/// The scripted run, each line made and then let go rather than kept.
///
/// `scenec run -o FILE` writes each piece and lets it go, too. The output says how many
/// frames and bytes, as `FRAMES BYTES`: for measuring the engine, not a growing buffer.
@_cdecl("scenec_measure_script")
public func scenecMeasureScript() -> Int32 {
  guard let graph = instance.graph, let context = instance.context else { return noScene() }
  do throws(RuntimeError) {
    var runner = try SceneRunner(graph: graph)
    var writer = JSONLinesWriter(context: context)
    var text = TextBytes(capacity: 1 << 16)
    var frames = 0
    var bytes = 0
    while let frame = try runner.nextFrame() {
      writer.append(frame, to: &text)
      frames += 1
      if text.count >= 1 << 16 {
        bytes += text.count
        text.removeAll()
      }
    }
    bytes += text.count
    instance.output.set("\(frames) \(bytes)")
    return 0
  } catch {
    return failed(error)
  }
}

/// Restarts the session and plays the scene's own gesture.
@_cdecl("scenec_play_script")
public func scenecPlayScript() -> Int32 {
  guard instance.session != nil else { return noScene() }
  do throws(RuntimeError) {
    try instance.session?.playScript()
    instance.lines = instance.context.map { JSONLinesWriter(context: $0) }
    return 0
  } catch {
    return failed(error)
  }
}

/// A pointer went down (0), moved (1), lifted (2) or was cancelled (3) at a point in
/// scene coordinates, `elapsed` seconds after the last frame.
@_cdecl("scenec_pointer")
public func scenecPointer(_ phase: Int32, _ id: Int32, _ x: Double, _ y: Double, _ elapsed: Double)
  -> Int32
{
  guard instance.session != nil else { return noScene() }
  let phases: [LiveSession.PointerPhase] = [.down, .move, .up, .cancel]
  guard (0..<4).contains(phase), (0..<32).contains(id), x.isFinite, y.isFinite, elapsed.isFinite
  else {
    instance.output.set("a pointer needs a phase 0 to 3, an id 0 to 31 and finite numbers")
    return 1
  }
  instance.session?.pointer(
    phases[Int(phase)], id: Int(id), at: Point(x, y), afterLastFrame: elapsed)
  return 0
}

/// Sets the scene's input named by the first `length` bytes of the input buffer to `value`.
///
/// A trigger is fired; a boolean is 0 or 1. It is set `elapsed` seconds after the last
/// frame: it happens at its own moment in the next frame. 1 with why when the scene has no
/// such input or the input cannot take the value.
@_cdecl("scenec_set_input")
public func scenecSetInput(_ length: Int32, _ value: Double, _ elapsed: Double) -> Int32 {
  guard instance.session != nil else { return noScene() }
  guard value.isFinite, elapsed.isFinite else {
    instance.output.set("an input's value and time are finite numbers")
    return 1
  }
  let name = instance.input.text(Int(length))
  if let why = instance.session?.setInput(named: name, to: value, afterLastFrame: elapsed) {
    instance.output.set(why)
    return 1
  }
  return 0
}

/// Makes the next frame: its JSON line (`kind` 0) or the compact entry the renderer
/// draws (`kind` 1) goes to the output.
@_cdecl("scenec_frame")
public func scenecFrame(_ kind: Int32) -> Int32 {
  guard instance.session != nil, let context = instance.context else { return noScene() }
  do throws(RuntimeError) {
    guard let frame = try instance.session?.frame() else { return noScene() }
    setOutput(frame, kind: kind, context: context, lines: &instance.lines)
    return 0
  } catch {
    return failed(error)
  }
}

/// Starts the live session again from the scene's start, with no finger down.
@_cdecl("scenec_restart")
public func scenecRestart() -> Int32 {
  guard instance.session != nil else { return noScene() }
  do throws(RuntimeError) {
    try instance.session?.restart()
    instance.lines = instance.context.map { JSONLinesWriter(context: $0) }
    return 0
  } catch {
    return failed(error)
  }
}

/// Goes back (or forward) to frame `index` of the take, exactly as it was made, and puts
/// its entry (`kind` as for ``scenecFrame(_:)``) in the output; the next frame replays the
/// take from there until a pointer takes over.
@_cdecl("scenec_seek")
public func scenecSeek(_ index: Int32, _ kind: Int32) -> Int32 {
  guard instance.session != nil, let context = instance.context else { return noScene() }
  do throws(RuntimeError) {
    guard let frame = try instance.session?.seek(to: Int(index)) else {
      instance.output.set("nothing has been played yet")
      return 1
    }
    // A line of its own: the running writer's memory of the last frame stays as it was.
    var lines: JSONLinesWriter? = JSONLinesWriter(context: context)
    setOutput(frame, kind: kind, context: context, lines: &lines)
    return 0
  } catch {
    return failed(error)
  }
}

/// The last frame of the take (-1 before the first): where a timeline ends.
@_cdecl("scenec_furthest_frame")
public func scenecFurthestFrame() -> Int32 {
  Int32(clamping: instance.session?.furthestFrame ?? -1)
}

/// Puts `frame` in the output: its JSON line by `lines` (`kind` 0) or the compact entry
/// the renderer draws (any other `kind`).
func setOutput(_ frame: Frame, kind: Int32, context: OutputContext, lines: inout JSONLinesWriter?) {
  var text = TextBytes(capacity: 4096)
  if kind == 0 {
    lines?.append(frame, to: &text)
  } else {
    SceneJSON.appendFrame(frame, context: context, to: &text)
  }
  instance.output.set(text.bytes)
}

func noScene() -> Int32 {
  instance.output.set("no scene is loaded")
  return 1
}

func failed(_ error: RuntimeError) -> Int32 {
  instance.output.set(
    DiagnosticRenderer(files: instance.file.map { [$0] } ?? []).render(error.diagnostic))
  return 2
}

/// Hashing's seed.
///
/// Embedded Swift asks the C library for random bytes to seed `Hasher`;
/// the engine's output never depends on hash order, and a fixed seed needs no WASI import.
@_cdecl("arc4random_buf")
public func arc4randomBuf(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
  buffer?.initializeMemory(as: UInt8.self, repeating: 0, count: count)
}

/// `Double("0.57")` in Embedded Swift asks the host for `strtod` in the C locale; wasi-libc
/// has one locale, C, and its `strtod` rounds correctly, as the host's does.
@_cdecl("_swift_stdlib_strtod_clocale")
public func strtodInTheCLocale(
  _ text: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<Double>?
) -> UnsafePointer<CChar>? {
  var end: UnsafeMutablePointer<CChar>?
  let value = strtod(text, &end)
  result?.pointee = value
  return UnsafePointer(end)
}

@_extern(c, "strtod")
func strtod(
  _ text: UnsafePointer<CChar>?, _ end: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Double

/// Where Embedded Swift writes (a failed precondition's message, before it traps): kept,
/// at most 4 KiB, for the host to show (`scenec_console`), rather than through WASI's
/// standard output, which a page does not have.
nonisolated(unsafe) var console: [UInt8] = []

@_cdecl("putchar")
public func putchar(_ character: Int32) -> Int32 {
  if console.count < 4096 { console.append(UInt8(truncatingIfNeeded: character)) }
  return character
}

/// Copies what Embedded Swift wrote to the output, and returns its length.
@_cdecl("scenec_console")
public func scenecConsole() -> Int32 {
  console.withUnsafeBufferPointer { instance.output.set($0) }
  return Int32(console.count)
}
