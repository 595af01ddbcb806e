// What a user of the facade needs to read results and set options, without importing the layers.
@_exported import struct YOLODetect.Detection
@_exported import struct YOLODetect.BoundingBox
@_exported import struct YOLODetect.LabelMap
@_exported import enum YOLOImage.ResizeMode
@_exported import struct YOLOImage.ImageDecoder
@_exported import struct YOLOImage.RGBImage
