// swift-tools-version:6.0
// A team's own date-picker math, swept by the harness from a Swift Testing test: depend on
// ConformanceKit (here by path, from the harness's repository) and write one test.
import PackageDescription

let package = Package(
  name: "MyPicker",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "CalendarConformance", path: "../.."),
  ],
  targets: [
    .target(name: "MyPicker"),
    // The functions a sweep calls, shared by the test and the worker executable.
    .target(name: "MyPickerConformance", dependencies: [
      "MyPicker",
      .product(name: "ConformanceKit", package: "CalendarConformance"),
    ]),
    // Serves an isolated sweep's worker processes: a trap costs its cases, not the test run.
    .executableTarget(name: "MyPickerWorker", dependencies: ["MyPickerConformance"]),
    .testTarget(name: "MyPickerTests", dependencies: [
      "MyPicker",
      "MyPickerConformance",
      .product(name: "ConformanceKit", package: "CalendarConformance"),
    ]),
  ]
)
