// `import RxFoundation` replaces `import RxSwift`: RxCore comes with it.
@_exported import RxCore
