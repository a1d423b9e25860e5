import Foundation
import ObjectModel
