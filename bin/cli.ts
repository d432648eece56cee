// placeholder until the dispatcher lands
export {};
