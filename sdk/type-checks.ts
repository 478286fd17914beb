/** True when `A` and `B` are assignable both ways: a generated interface is exactly the type it documents. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** A compile-time check: only `true` fits, so a generated file that no longer agrees fails to build. */
export type Assert<T extends true> = T;
