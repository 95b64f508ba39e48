fn main() {
    std::process::exit(flowmcp_grading::run());
}
