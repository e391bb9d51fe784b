// The page's session is the engine's: whoever uses the preview's uses it.
@_exported import SceneEngine

/// A page's run of the scene in the preview: the engine's live session (the page's own
/// simulation, pointers, take and recording), which the WebAssembly engine runs in a page
/// the same way.
public typealias PreviewSession = LiveSession
