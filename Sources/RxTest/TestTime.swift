/// Virtual time of a `TestScheduler`, in ticks.
public typealias TestTime = Int
