//! `agentwire gateway tool-id|card|truncate|path`: the gateway contracts with exact cl100k
//! token counts.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::gateway::card::{CardBudget, ChoiceCard, enforce_card_budget, truncate_description};
use agentwire::gateway::item::{Item, mcp_tool_to_item};
use agentwire::gateway::path::parse_path;
use agentwire::gateway::report::{card_report, tool_id_report, truncation_report};
use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply};
use agentwire::gateway::tool_id::{parse_tool_id, parts_to_value};
use agentwire::json::{self, Value};
use std::sync::LazyLock;

use agentwire::tokens::Tokenizer;
use agentwire::{Error, ErrorKind};
use clap::{Subcommand, ValueEnum};

#[derive(Subcommand)]
pub enum GatewayCommand {
    /// MCP tool definition JSON → its canonical tool_id, derivation and catalog item (JSON).
    ToolId {
        /// Prefix the name with `SERVER.` first, as a configured upstream namespace does.
        #[arg(long)]
        server_name: Option<String>,
        /// Parse this tool id into its parts instead.
        #[arg(long, conflicts_with = "file")]
        parse: Option<String>,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Catalog item JSON → its ChoiceCard, budgeted (target 60, hard cap 80 cl100k tokens).
    Card {
        /// Router score shown on the card.
        #[arg(long)]
        score: Option<f64>,
        /// Token target the description is truncated to.
        #[arg(long, default_value_t = 60)]
        target: usize,
        /// Token cap above which the card is an error.
        #[arg(long, default_value_t = 80)]
        hard_cap: usize,
        /// What to print.
        #[arg(long, value_enum, default_value_t = CardOutput::Json)]
        output: CardOutput,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Text → the description truncated to BUDGET cl100k tokens.
    Truncate {
        /// Token budget.
        #[arg(long, allow_negative_numbers = true)]
        budget: i64,
        /// Print the report (branch, token counts, offsets) as JSON instead of the text.
        #[arg(long)]
        json: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// A browse path → its segments; with --catalog, the tool_browse reply for that catalog.
    Path {
        /// The path, e.g. `/filesystem/*`.
        path: String,
        /// JSON array of MCP tool definitions to browse.
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CardOutput {
    /// Everything: card, renderings, token counts.
    Json,
    /// The `json.dumps` wire form.
    Wire,
    /// The §2.3 budget line.
    Line,
    /// The multi-line prompt form.
    Prompt,
}

fn print(text: &str) -> Result<(), Error> {
    let mut out = crate::stdout();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

fn print_json(value: &Value) -> Result<(), Error> {
    print(&json::to_string(value, json::WriteOptions::PLAIN)?)
}

/// The gateway's budgets are cl100k_base tokens (contextweaver's).
fn counter() -> &'static Tokenizer {
    static CL100K: LazyLock<Tokenizer> = LazyLock::new(Tokenizer::cl100k_base);
    &CL100K
}

pub fn run(command: GatewayCommand) -> Result<ExitCode, Error> {
    match command {
        GatewayCommand::ToolId {
            parse: Some(id), ..
        } => print_json(&parts_to_value(&parse_tool_id(&id)?))?,
        GatewayCommand::ToolId {
            server_name,
            parse: None,
            file,
        } => {
            let tool = json::parse(&crate::read_text(file.as_ref())?)?;
            let converted = mcp_tool_to_item(&tool, server_name.as_deref())?;
            print_json(&tool_id_report(&converted))?;
        }
        GatewayCommand::Card {
            score,
            target,
            hard_cap,
            output,
            file,
        } => {
            let item = Item::from_value(&json::parse(&crate::read_text(file.as_ref())?)?)?;
            let mut card = ChoiceCard::from_item(&item, score);
            let budget = CardBudget { target, hard_cap };
            let counter = counter();
            let report = enforce_card_budget(&mut card, counter, budget).map_err(|(e, _)| e)?;
            match output {
                CardOutput::Json => print_json(&card_report(&card, &report, counter))?,
                CardOutput::Wire => print(&card.wire_json())?,
                CardOutput::Line => print(&card.budget_line(1, 1))?,
                CardOutput::Prompt => print(&card.prompt_text())?,
            }
        }
        GatewayCommand::Truncate {
            budget,
            json: as_json,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            let counter = counter();
            let truncation = truncate_description(&text, budget, counter);
            if as_json {
                print_json(&truncation_report(&text, &truncation, counter))?;
            } else {
                print(&truncation.output)?;
            }
        }
        GatewayCommand::Path {
            path,
            catalog: None,
        } => {
            let segments = parse_path(&path)?;
            print_json(&Value::Array(
                segments.into_iter().map(Value::from).collect(),
            ))?;
        }
        GatewayCommand::Path {
            path,
            catalog: Some(file),
        } => {
            let defs = json::parse(&crate::read_text(Some(&file))?)?;
            let Value::Array(defs) = defs else {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!(
                        "{}: expected an array of MCP tool definitions",
                        file.display()
                    ),
                ));
            };
            let mut gateway = Gateway::new(GatewayOptions::default());
            let ingest = gateway.register_mcp_tools(&defs, None, OnInvalid::Skip)?;
            for skipped in &ingest.skipped {
                eprintln!(
                    "skipped tool {:?}: [{}] {}",
                    skipped.name,
                    skipped.error.code(),
                    skipped.error.message()
                );
            }
            match gateway.browse_path(&Value::String(path), counter()) {
                Ok(cards) => print(&Reply::Cards(cards).wire_json())?,
                Err(error) => {
                    print(&error.wire_json())?;
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
