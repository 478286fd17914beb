/**
 * Imported for its effect, before the loader (`import "./native-import";` as a test file's first import):
 * vitest evaluates sources with vm.runInThisContext and no importModuleDynamically, so the fleet loader's
 * `new Function("url", "return import(url)")` would throw ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. Installed
 * before the loader is evaluated, `Function` answers exactly that construction
 * with the same `import(url)` compiled with Node's default loader (vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER);
 * any other body is the real Function's, so a changed body still fails the tests.
 */
export const realFunction: FunctionConstructor = globalThis.Function;

{
  const real = realFunction;
  const vm = process.getBuiltinModule("node:vm") as typeof import("node:vm");
  const nativeImport = new vm.Script("(url) => import(url)", {
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext();
  globalThis.Function = new Proxy(real, {
    construct: (target, args, newTarget) =>
      args.length === 2 && args[0] === "url" && args[1] === "return import(url)"
        ? nativeImport
        : Reflect.construct(target, args, newTarget),
  });
}
