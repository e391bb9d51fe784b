import SceneGraph
import SceneRuntime

#if !hasFeature(Embedded)
extension FrameOutput {
  /// Handle trajectories for plotting: one row per handle per frame, streamed.
  ///
  /// ```
  /// frame,time,handle,x,y,angle,state
  /// 0,0,ball,120.5,80,0,dragging
  /// ```
  public static let csv = FrameOutput(
    name: "csv", fileExtensions: ["csv"],
    summary: "per-frame handle trajectories (frame, time, handle, x, y, angle, state)",
    writer: { CSVWriter(context: $0) })
}
#endif

/// Streams: a header, then each frame's rows as they come.
///
/// A scene that animates any of a handle's properties gets `rotation,scale,opacity,width,
/// height,cornerRadius,strokeWidth` after `state` (the scene's own values where a handle
/// does not animate one).
struct CSVWriter: FrameWriter {
  let context: OutputContext
  let animates: Bool
  /// Whether a handle's scale along its own axes changes: then `scaleX,scaleY` follow.
  let stretches: Bool
  /// The columns after `state` when a scene animates a handle's look.
  static let columns: [SceneGraph.AnimatedProperty] = [
    .rotation, .scale, .opacity, .width, .height, .cornerRadius, .strokeWidth,
  ]

  init(context: OutputContext) {
    self.context = context
    animates = context.graph.handles.contains { !$0.changingProperties.isEmpty }
    stretches = context.graph.handles.contains {
      $0.changingProperties.contains { $0 == .scaleX || $0 == .scaleY }
    }
  }

  mutating func begin(into sink: inout TextBytes) {
    sink.append("frame,time,handle,x,y,angle,state")
    sink.append(animates ? ",rotation,scale,opacity,width,height,cornerRadius,strokeWidth" : "")
    sink.append(stretches ? ",scaleX,scaleY\n" : "\n")
  }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
    let p = context.precision
    // `frame,time,` starts every row of the frame.
    var start = TextBytes(capacity: 32)
    start.append(frame.index)
    start.append(UInt8(ascii: ","))
    start.append(frame.time, precision: p)
    start.append(UInt8(ascii: ","))
    let handles = frame.handles
    for i in handles.indices {
      // Scene names are identifiers, so they never need CSV quoting.
      sink.append(start)
      sink.append(handles[i].name)
      sink.append(UInt8(ascii: ","))
      sink.append(handles[i].x, precision: p)
      sink.append(UInt8(ascii: ","))
      sink.append(handles[i].y, precision: p)
      sink.append(UInt8(ascii: ","))
      sink.append(handles[i].angle, precision: p)
      sink.append(UInt8(ascii: ","))
      sink.append(JSONLines.stateText(handles[i].state))
      if animates {
        let declared = i < context.graph.handles.count ? context.graph.handles[i] : nil
        for property in Self.columns {
          sink.append(UInt8(ascii: ","))
          sink.append(handles[i].drawn(property, declared: declared), precision: p)
        }
      }
      if stretches {
        sink.append(UInt8(ascii: ","))
        sink.append(handles[i].scaleX, precision: p)
        sink.append(UInt8(ascii: ","))
        sink.append(handles[i].scaleY, precision: p)
      }
      sink.append(UInt8(ascii: "\n"))
    }
  }
}
