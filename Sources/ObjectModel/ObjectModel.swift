import Foundation
import Predicates
