// Command gen writes the Node.js, Python and Go SDKs of the billing provider plugin from its
// package schema, with Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen,
// pinned in go.mod): the CLI's `pulumi package gen-sdk` cannot run here (it needs the language
// hosts' plugin support), and .NET and Java generators are not part of pkg/v3.
//
// Usage: go run ./sdk-gen/gen -schema sdk-gen/schema.json -out sdk-gen [-lang nodejs,python,go]
//
// Each language's folder is emptied and written anew (what the generator no longer emits
// disappears), and gets a `.schema-sha256` holding the sha256 of the schema file it was
// generated from, which the staleness test compares with the checked-in schema.json.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into every file's "do not edit" banner.
const tool = "billing-sdk-gen"

// shaFile records which schema a language folder was generated from.
const shaFile = ".schema-sha256"

func main() {
	schemaPath := flag.String("schema", "sdk-gen/schema.json", "the package schema (JSON)")
	outRoot := flag.String("out", "sdk-gen", "where the <lang> folders go")
	langs := flag.String("lang", "nodejs,python,go", "comma-separated languages to generate")
	flag.Parse()
	if err := run(*schemaPath, *outRoot, strings.Split(*langs, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "sdk-gen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, outRoot string, langs []string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	digest := hex.EncodeToString(sum[:])

	for _, lang := range langs {
		lang = strings.TrimSpace(lang)
		// A package bound afresh per language: the generators record their own options in it.
		pkg, err := bind(raw)
		if err != nil {
			return err
		}
		files, err := generate(lang, pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		dir := filepath.Join(outRoot, lang)
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		names := make([]string, 0, len(files))
		for name := range files {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if err := write(filepath.Join(dir, filepath.FromSlash(name)), files[name]); err != nil {
				return err
			}
		}
		if err := write(filepath.Join(dir, shaFile), []byte(digest+"\n")); err != nil {
			return err
		}
		fmt.Printf("%s: %d files in %s\n", lang, len(files)+1, dir)
	}
	return nil
}

// bind reads the schema and binds it, validating it against the package metaschema. The schema's
// language options (plugin/schema.ts) say respectSchemaVersion, so the SDKs carry its version.
func bind(raw []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("schema: %s", diags.Error())
	}
	return pkg, nil
}

func generate(lang string, pkg *schema.Package) (map[string][]byte, error) {
	switch lang {
	case "nodejs":
		files, err := nodejs.GeneratePackage(tool, pkg, nil, nil, false, noLoader{})
		if err != nil {
			return nil, err
		}
		files["package.json"], err = shippedPackageJSON(files["package.json"])
		if err != nil {
			return nil, err
		}
		return files, withoutPromiseStacks(files)
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noLoader{})
	case "go":
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err != nil {
			return nil, err
		}
		// Without supportPack the Go generator writes no go.mod. A module at the import base path
		// lets a program use the SDK from this repository (`replace <importBasePath> => <this folder>`).
		info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
		if info.ImportBasePath == "" {
			return nil, errors.New("language.go.importBasePath is not set in the schema")
		}
		base := info.ImportBasePath[strings.LastIndex(info.ImportBasePath, "/")+1:]
		files[base+"/go.mod"] = []byte(fmt.Sprintf(
			"module %s\n\ngo 1.25\n\nrequire (\n\tgithub.com/blang/semver v3.5.1+incompatible\n\tgithub.com/pulumi/pulumi/sdk/v3 %s\n)\n",
			info.ImportBasePath, pulumiSDKVersion))
		return files, nil
	default:
		return nil, fmt.Errorf("no generator for %q (nodejs, python, go; .NET and Java generators are not in pkg/v3)", lang)
	}
}

// shippedPackageJSON reduces the generated package.json to what the SDK needs where it ships: compiled
// into the npm package's dist/ (tsconfig.build.json) as the subpath export pulumi-subscription-billing/billing,
// it is no package of its own. What stays is the version, which utilities.getVersion reads at run time:
// the plugin version its resources ask the engine for. What goes:
//   - the "pulumi" block (resource: true): the nodejs language host reads every package.json under
//     node_modules, nested ones too, and would make every program of every project that installed the
//     package require the billing plugin, dynamic-provider programs included;
//   - scripts and devDependencies, which built it as a package of its own, and dependencies (the package's
//     peer dependency on @pulumi/pulumi holds for it).
func shippedPackageJSON(generated []byte) ([]byte, error) {
	var g struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		License string `json:"license"`
	}
	if err := json.Unmarshal(generated, &g); err != nil {
		return nil, fmt.Errorf("the generated package.json: %w", err)
	}
	if g.Version == "" || strings.Contains(g.Version, "$") {
		return nil, fmt.Errorf("the generated package.json has version %q: the schema needs a version and language.nodejs.respectSchemaVersion", g.Version)
	}
	out, err := json.MarshalIndent(struct {
		Name        string `json:"name"`
		Version     string `json:"version"`
		Description string `json:"description"`
		License     string `json:"license,omitempty"`
		Private     bool   `json:"private"`
	}{
		Name:        g.Name,
		Version:     g.Version,
		Description: "The billing provider plugin's Node.js SDK, generated by sdk-gen, shipped in pulumi-subscription-billing as this subpath export. utilities.getVersion reads this version: the plugin's.",
		License:     g.License,
		Private:     true,
	}, "", "    ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// registration matches a generated resource's one call of its base constructor.
var registration = regexp.MustCompile(`(?m)^( +)super\((\w+)\.__pulumiType, name, resourceInputs, opts\);$`)

// withoutPromiseStacks wraps every generated resource's registration as the dynamic providers' classes do
// (provider/registration-stacks.ts): @pulumi/pulumi formats a stack trace for each of the four promises of every
// property a registration passes, which only its leak report reads, and the generated SDK passes every input and
// output. The SDK ships compiled into the package's dist/ beside provider/ (shippedPackageJSON), so it imports the
// helper from there. A resource file without the call fails the generation: the wrapping is never silently lost.
func withoutPromiseStacks(files map[string][]byte) error {
	for name, b := range files {
		if !strings.HasSuffix(name, ".ts") || strings.Contains(name, "/") || !bytes.Contains(b, []byte(".__pulumiType, name, resourceInputs")) {
			continue
		}
		if len(registration.FindAll(b, -1)) != 1 {
			return fmt.Errorf("nodejs/%s: expected one `super(X.__pulumiType, name, resourceInputs, opts);`", name)
		}
		b = registration.ReplaceAll(b, []byte(`${1}// Every property is four promises with a stack trace each, read only by a leak report: registration-stacks.ts.
${1}const limit = beginRegistration();
${1}try {
${1}    super(${2}.__pulumiType, name, resourceInputs, opts);
${1}} catch (err) {
${1}    throw registrationError(limit, err);
${1}} finally {
${1}    endRegistration(limit);
${1}}`))
		imp := []byte("import * as utilities from \"./utilities\";\n")
		if !bytes.Contains(b, imp) {
			return fmt.Errorf("nodejs/%s: no `import * as utilities` to put the helper's import after", name)
		}
		files[name] = bytes.Replace(b, imp, append(imp, []byte("import { beginRegistration, endRegistration, registrationError } from \"../../provider/registration-stacks\";\n")...), 1)
	}
	return nil
}

// pulumiSDKVersion is the Go SDK the generated Go package requires: the codegen's own release.
const pulumiSDKVersion = "v3.259.0"

func write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// noLoader answers every request for another package with an error: the billing schema
// references no other package, so a request for one is a mistake in the schema.
type noLoader struct{}

func (noLoader) fail(name string) error {
	return fmt.Errorf("the billing schema references package %q: no other package can be loaded by this generator", name)
}

func (l noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.fail(pkg)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.fail(d.Name)
}

func (l noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.fail(pkg)
}

func (l noLoader) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, l.fail(d.Name)
}
