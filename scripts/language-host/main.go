// pulumi-language-nodejs, for machines where the module proxy serves only the legacy nodejs
// language host (see scripts/ensure-pulumi.sh): the legacy host runs beside this one
// (legacy/pulumi-language-nodejs next to this executable) and gets every LanguageRuntime call
// unchanged, except GenerateProgram, which it lacks (it predates the call) and this host answers
// with Pulumi's nodejs program generator at the CLI's release. `pulumi import` makes that call to
// print the code of what it imported, and `pulumi convert` to write a program.
//
// Forwarding is byte for byte (a raw codec), so the legacy host's protocol, errors and streams
// reach the CLI as they are; nothing here knows the other calls.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

const generateProgram = "/pulumirpc.LanguageRuntime/GenerateProgram"

// Pulumi's own limit for plugin messages (rpcutil's, unexported there; its GrpcChannelOptions
// applies it to the client side): schemas and programs are large.
const maxMessage = 1024 * 1024 * 400

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	legacy := filepath.Join(filepath.Dir(exe), "legacy", "pulumi-language-nodejs")
	cmd := exec.Command(legacy, os.Args[1:]...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the legacy host %s: %w", legacy, err)
	}
	exited := make(chan int, 1)
	go func() {
		_ = cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
	}()

	// Like every plugin, the legacy host prints its port first. Without one (--help, a bad
	// argument) it has said why on stderr: leave with its exit code.
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	port := strings.TrimSpace(line)
	if err != nil || port == "" {
		os.Exit(<-exited)
	}

	conn, err := grpc.NewClient("127.0.0.1:"+port,
		grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		return err
	}
	server := grpc.NewServer(
		grpc.UnknownServiceHandler(handler(conn)),
		grpc.ForceServerCodec(raw{}),
		grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("%d\n", lis.Addr().(*net.TCPAddr).Port)
	go func() { _, _ = io.Copy(os.Stdout, out) }()
	go func() { os.Exit(<-exited) }()
	return server.Serve(lis)
}

func handler(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ any, in grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(in)
		if method == generateProgram {
			return answerGenerateProgram(in)
		}
		return forward(conn, method, in)
	}
}

// forward relays one call, unary or streaming, to the legacy host and its answer back.
func forward(conn *grpc.ClientConn, method string, in grpc.ServerStream) error {
	ctx, cancel := context.WithCancel(in.Context())
	defer cancel()
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		ctx = metadata.NewOutgoingContext(ctx, md.Copy())
	}
	out, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method,
		grpc.ForceCodec(raw{}))
	if err != nil {
		return err
	}
	go func() {
		for {
			f := new(frame)
			if err := in.RecvMsg(f); err != nil {
				_ = out.CloseSend()
				return
			}
			if err := out.SendMsg(f); err != nil {
				return
			}
		}
	}()
	headerSent := false
	for {
		f := new(frame)
		if err := out.RecvMsg(f); err != nil {
			in.SetTrailer(out.Trailer())
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err // the host's status, code and message intact
		}
		if !headerSent {
			if h, err := out.Header(); err == nil {
				_ = in.SendHeader(h)
			}
			headerSent = true
		}
		if err := in.SendMsg(f); err != nil {
			return err
		}
	}
}

func answerGenerateProgram(in grpc.ServerStream) error {
	f := new(frame)
	if err := in.RecvMsg(f); err != nil {
		return err
	}
	req := new(pulumirpc.GenerateProgramRequest)
	if err := proto.Unmarshal(f.b, req); err != nil {
		return err
	}
	resp, err := generate(req)
	if err != nil {
		return err
	}
	b, err := proto.Marshal(resp)
	if err != nil {
		return err
	}
	return in.SendMsg(&frame{b})
}

// generate is what the current nodejs host does for GenerateProgram: parse the PCL files, bind
// them against the schemas the CLI's loader serves (leniently unless strict), generate TypeScript.
func generate(req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	names := make([]string, 0, len(req.Source))
	for name := range req.Source {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.Source[name]), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
	}

	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, loader, opts...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	if program == nil {
		return nil, errors.New("the program bound to nothing")
	}
	files, diags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	rpcDiags = append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiags}, nil
}

// frame is one gRPC message as bytes; raw passes it through unparsed.
type frame struct{ b []byte }

type raw struct{}

func (raw) Marshal(v any) ([]byte, error) { return v.(*frame).b, nil }

func (raw) Unmarshal(data []byte, v any) error {
	f := v.(*frame)
	f.b = append(f.b[:0], data...)
	return nil
}

// Name is the content subtype on the wire: the legacy host decodes these bytes as protobuf.
func (raw) Name() string { return "proto" }
