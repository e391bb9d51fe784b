import SceneRuntime

extension FrameOutput {
  /// Handle trajectories for plotting: one row per handle per frame, streamed.
  ///
  /// ```
  /// frame,time,handle,x,y,angle,state
  /// 0,0,ball,120.5,80,0,dragging
  /// ```
  public static let csv = FrameOutput(
    name: "csv", fileExtensions: ["csv"], summary: "per-frame handle trajectories (frame, time, handle, x, y, angle, state)",
    begin: { _ in "frame,time,handle,x,y,angle,state\n" },
    frame: { context, frame in
      func n(_ value: Double) -> String { NumberText.format(value, precision: context.precision) }
      return frame.handles.map { h in
        // Scene names are identifiers, so they never need CSV quoting.
        "\(frame.index),\(n(frame.time)),\(h.name),\(n(h.x)),\(n(h.y)),\(n(h.angle)),\(h.state.rawValue)\n"
      }.joined()
    })
}
