/**
 * switchboard/testing — test doubles that are part of the product (the scripted model).
 */
export {};
