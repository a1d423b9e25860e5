import ArgumentParser
import Interchange

/// `--type sqlite|xml|binary`
extension StoreKind: ExpressibleByArgument {}
