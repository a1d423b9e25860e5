//
//  Entry+CoreDataClass.swift
//  Journal
//
//  Created by Journal on 11/10/2019.
//
//

import Foundation
import CoreData

@objc(Entry)
public class Entry: NSManagedObject {

}
