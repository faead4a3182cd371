// swift-tools-version:6.0
// The calendar conformance harness: a subject (Foundation), an oracle (system libicu),
// and the engine that sweeps one against the other. See README.md, "Design".
import PackageDescription

let package = Package(
  name: "CalendarConformance",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "conformance", targets: ["ConformanceCLI"]),
    // Sweeping a subject of your own from a Swift Testing test (README, "Your own logic").
    .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
  ],
  targets: [
    // Link-only: the module map names a header with no ICU includes, so no Swift module
    // ever sees the system ICU declarations next to Foundation's.
    .systemLibrary(
      name: "CICU",
      pkgConfig: "icu-i18n",
      providers: [.apt(["libicu-dev"])]
    ),
    // The only code that includes <unicode/*.h>; its public header uses <stdint.h> types only.
    .target(
      name: "ICUShim",
      dependencies: ["CICU"],
      linkerSettings: [.linkedLibrary("dl")]
    ),
    // Link-only as well: zlib for the gzip-compressed JSON Lines of the results.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // Header-only: glibc's mallopt, which the merge tunes.
    .systemLibrary(name: "CMalloc"),
    .target(name: "PickerLogic"),
    .target(name: "ICUOracle", dependencies: ["ICUShim"]),
    // The page's script and style are files (linted as JavaScript in CI), embedded in the
    // binary so index.html stays one offline file.
    .target(name: "Conformance", dependencies: ["PickerLogic", "ICUOracle", "CZlib"],
            resources: [.embedInCode("Reports/Page/page.js"), .embedInCode("Reports/Page/page.css")]),
    // The `conformance` command. Its module gets its own name: a module `conformance` cannot
    // import the library `Conformance` (the names differ only in case).
    .executableTarget(name: "ConformanceCLI", dependencies: ["Conformance", "CMalloc"],
                      path: "Sources/conformance"),
    .target(name: "ConformanceKit", dependencies: ["Conformance", "PickerLogic"]),
    .testTarget(name: "PickerLogicTests", dependencies: ["PickerLogic"]),
    .testTarget(name: "ICUOracleTests", dependencies: ["ICUOracle"]),
    // ConformanceCLI is a dependency so that `swift test` builds the executable the CLI
    // tests run.
    .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "ConformanceCLI", "PickerLogic"]),
  ]
)
