import SceneRuntime

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
    begin: { _ in "frame,time,handle,x,y,angle,state\n" },
    frame: { context, frame in
      let p = context.precision
      // `frame,time,` starts every row of the frame.
      var start = TextBytes(capacity: 32)
      start.append(frame.index)
      start.append(UInt8(ascii: ","))
      start.append(frame.time, precision: p)
      start.append(UInt8(ascii: ","))
      var text = TextBytes(capacity: frame.handles.count * (start.count + 64))
      let handles = frame.handles
      for i in handles.indices {
        // Scene names are identifiers, so they never need CSV quoting.
        text.append(start)
        text.append(handles[i].name)
        text.append(UInt8(ascii: ","))
        text.append(handles[i].x, precision: p)
        text.append(UInt8(ascii: ","))
        text.append(handles[i].y, precision: p)
        text.append(UInt8(ascii: ","))
        text.append(handles[i].angle, precision: p)
        text.append(UInt8(ascii: ","))
        text.append(JSONLines.stateText(handles[i].state))
        text.append(UInt8(ascii: "\n"))
      }
      return text.string
    })
}
