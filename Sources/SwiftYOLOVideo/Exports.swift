// What a user of the video and recipe APIs needs, through one import.
@_exported import SwiftYOLO
@_exported import YOLORecipes
@_exported import YOLOVideo
