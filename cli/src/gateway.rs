//! `agentwire gateway tool-id|card|truncate|path`: the gateway contracts with exact cl100k
//! token counts.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::gateway::schema::JsonSchemaValidator;
use agentwire::json::{self, Value};
use agentwire::tokens::{Encoding, Tiktoken};
use agentwire::Error;
use agentwire_bindings::api::{self, GatewaySession};
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
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

fn counter() -> Tiktoken {
    Tiktoken(Encoding::Cl100kBase)
}

pub fn run(command: GatewayCommand) -> Result<ExitCode, Error> {
    match command {
        GatewayCommand::ToolId {
            parse: Some(id), ..
        } => {
            print(&api::gateway_parse_tool_id(&json::to_string(
                &Value::String(id),
                json::WriteOptions::PLAIN,
            )?)?)?;
        }
        GatewayCommand::ToolId {
            server_name,
            parse: None,
            file,
        } => {
            let tool = crate::read_text(file.as_ref())?;
            let options = match server_name {
                Some(name) => {
                    let mut map = json::Map::new();
                    map.insert("serverName".into(), Value::String(name));
                    json::to_string(&Value::Object(map), json::WriteOptions::PLAIN)?
                }
                None => String::new(),
            };
            print(&api::gateway_tool_id(&tool, &options)?)?;
        }
        GatewayCommand::Card {
            score,
            target,
            hard_cap,
            output,
            file,
        } => {
            let item = crate::read_text(file.as_ref())?;
            let mut options = json::Map::new();
            if let Some(score) = score {
                options.insert("score".into(), Value::Number(json::Number::from_f64(score)));
            }
            options.insert(
                "targetTokens".into(),
                Value::Number(json::Number::from_u64(target as u64)),
            );
            options.insert(
                "hardCapTokens".into(),
                Value::Number(json::Number::from_u64(hard_cap as u64)),
            );
            let report = api::gateway_card(
                &item,
                &json::to_string(&Value::Object(options), json::WriteOptions::PLAIN)?,
                &counter(),
            )?;
            let key = match output {
                CardOutput::Json => return print(&report).map(|()| ExitCode::SUCCESS),
                CardOutput::Wire => "wire_json",
                CardOutput::Line => "budget_line",
                CardOutput::Prompt => "prompt_text",
            };
            let report = json::parse(&report)?;
            print(report.get(key).and_then(Value::as_str).unwrap_or_default())?;
        }
        GatewayCommand::Truncate {
            budget,
            json: as_json,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            let report = api::gateway_truncate(&text, budget, &counter())?;
            if as_json {
                print(&report)?;
            } else {
                let report = json::parse(&report)?;
                print(
                    report
                        .get("output")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                )?;
            }
        }
        GatewayCommand::Path {
            path,
            catalog: None,
        } => {
            print(&api::gateway_parse_path(&json::to_string(
                &Value::String(path),
                json::WriteOptions::PLAIN,
            )?)?)?;
        }
        GatewayCommand::Path {
            path,
            catalog: Some(file),
        } => {
            let defs = crate::read_text(Some(&file))?;
            let mut session = GatewaySession::new("")?;
            let ingest = json::parse(&session.register(&defs, "")?)?;
            if let Some(skipped) = ingest.get("skipped").and_then(Value::as_array) {
                for entry in skipped {
                    let field = |k: &str| {
                        entry
                            .get(k)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string()
                    };
                    eprintln!(
                        "skipped tool {:?}: [{}] {}",
                        field("name"),
                        field("code"),
                        field("message")
                    );
                }
            }
            let mut arguments = json::Map::new();
            arguments.insert("path".into(), Value::String(path));
            let arguments = json::to_string(&Value::Object(arguments), json::WriteOptions::PLAIN)?;
            let reply = json::parse(&session.dispatch(
                "tool_browse",
                &arguments,
                "",
                &counter(),
                &JsonSchemaValidator::default(),
            )?)?;
            print(
                reply
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            )?;
            if reply.get("isError") == Some(&Value::Bool(true)) {
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
