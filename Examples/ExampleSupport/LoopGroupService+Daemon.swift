import ArgumentParser
import Logging
import RxUV
import RxUVServiceLifecycle
import ServiceLifecycle

extension LoopGroupService {
    /// Runs a daemon's services under one service group
    /// (`run(with:logger:)`) and turns a failure into exit status 1. A
    /// server that cannot listen and a group that cannot shut down have
    /// logged why (their `UVError`); any other error is logged here.
    public func runDaemon(with services: [any Service], logger: Logger) async throws {
        do {
            try await run(with: services, logger: logger)
        } catch {
            if !(error is UVError) {
                logger.critical("\(error)")
            }
            throw ExitCode(1)
        }
    }
}
