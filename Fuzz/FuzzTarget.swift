import Foundation
import Ingest
import Listings

/// libFuzzer's entry point (`scripts/fuzz.sh` builds this with `-sanitize=fuzzer,address`):
/// one parser per run, named by `ENCORE_FUZZ_FORMAT` (an ingester's format, as
/// `encore sources` lists them). A parser may refuse any input with an `IngestError`;
/// it must never crash, hang or read out of bounds, and a page it accepts must go
/// through the checks every page gets before it is applied.
private let ingester: any Ingester = {
    let format = ProcessInfo.processInfo.environment["ENCORE_FUZZ_FORMAT"] ?? "songkick-json"
    guard let ingester = IngesterRegistry.standard.ingester(named: format) else {
        fatalError("ENCORE_FUZZ_FORMAT: no format \(format); one of \(IngesterRegistry.standard.formats)")
    }
    return ingester
}()

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry point (SwiftPM names it after the target): libFuzzer's driver,
/// with its usual command line.
@_cdecl("encore_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { bytes, size in fuzz(bytes, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    _ = try? ingester.parse(data, context: PageContext(locator: "fuzz"))
    _ = ingester.recognizes(ContentSample(data))
    return 0
}
