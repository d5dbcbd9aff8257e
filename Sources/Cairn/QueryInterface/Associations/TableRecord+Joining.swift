// The joining methods, on record types: `Book.including(required: Book.author)`
// is `Book.all().including(required: Book.author)`.

extension TableRecord {
    /// See ``DerivableRequest/including(required:)``.
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(required: association)
    }

    /// See ``DerivableRequest/including(optional:)``.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// See ``DerivableRequest/including(all:)``.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }

    /// See ``DerivableRequest/joining(required:)``.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(required: association)
    }

    /// See ``DerivableRequest/joining(optional:)``.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(optional: association)
    }

    /// See ``DerivableRequest/annotated(withRequired:)``.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withRequired: association)
    }

    /// See ``DerivableRequest/annotated(withOptional:)``.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withOptional: association)
    }

    /// See ``DerivableRequest/orderByPrimaryKey()``.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// See ``DerivableRequest/groupByPrimaryKey()``.
    public static func groupByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().groupByPrimaryKey()
    }
}
