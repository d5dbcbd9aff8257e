// The joining methods, on record types: `Book.including(required: Book.author)`
// is `Book.all().including(required: Book.author)`.

extension TableRecord {
    /// See ``JoinableRequest/including(required:)``.
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(required: association)
    }

    /// See ``JoinableRequest/including(optional:)``.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// See ``JoinableRequest/including(all:)``.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }

    /// See ``JoinableRequest/joining(required:)``.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(required: association)
    }

    /// See ``JoinableRequest/joining(optional:)``.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(optional: association)
    }

    /// See ``JoinableRequest/annotated(withRequired:)``.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withRequired: association)
    }

    /// See ``JoinableRequest/annotated(withOptional:)``.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withOptional: association)
    }

    /// See ``TableRequest/orderByPrimaryKey()``.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// See ``TableRequest/groupByPrimaryKey()``.
    public static func groupByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().groupByPrimaryKey()
    }
}
