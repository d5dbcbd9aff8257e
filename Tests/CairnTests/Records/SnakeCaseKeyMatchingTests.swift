@testable import Cairn
import Testing

/// The comparison that `convertFromSnakeCase` records make between their keys
/// and the columns of each row gives the same answer as converting the
/// column and comparing strings.
@Suite struct SnakeCaseKeyMatchingTests {
    static let columns = [
        "", "_", "__", "id", "ID", "Id", "_id", "id_", "__id__",
        "player_name", "PLAYER_NAME", "Player_Name", "player__name", "_player_name_",
        "player_name_", "__player_name", "created_at", "createdAt", "url_value",
        "address_line_1", "line_1st", "v2_beta", "a_b_c", "a_", "_a", "x_y",
        "naïve_name", "été_date", "straße_nr", "ǆ_word",
    ]

    static let keys = [
        "", "_", "id", "ID", "Id", "_id", "playerName", "PlayerName", "playername",
        "player_name", "_playerName_", "playerName_", "__playerName", "createdAt",
        "urlValue", "addressLine1", "line1st", "v2Beta", "aBC", "a_", "_a", "xY",
        "naïveName", "étéDate", "straßeNr", "ǆWord",
    ]

    @Test func byteComparisonAgreesWithTheConversion() {
        for column in Self.columns {
            let converted = column.camelCasedFromSnakeCase
            for key in Self.keys + [converted, converted + "x", String(converted.dropLast())] {
                #expect(
                    column.snakeCaseIdentifier(convertsTo: key) == (converted == key),
                    "\(column) → \(converted) compared with \(key)")
            }
        }
    }

    @Test func recordsFindTheirColumns() throws {
        struct Item: Decodable, FetchableRecord {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var itemName: String
            var createdAt: Int
            var shelfID: Int
        }
        let dbQueue = try DatabaseQueue()
        let item = try dbQueue.read { db in
            try Item.fetchOne(db, sql: "SELECT 'lamp' AS item_name, 3 AS CREATED_AT, 7 AS shelf_id")
        }
        #expect(item?.itemName == "lamp")
        #expect(item?.createdAt == 3)
        #expect(item?.shelfID == 7)
    }
}
