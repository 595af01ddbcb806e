// What a user needs besides the detector: results, images, pixel buffers and their errors. Only
// these are public in YOLODetect and YOLOImage (everything else there is `package`), so the
// whole modules are re-exported.
@_exported import YOLODetect
@_exported import YOLOImage
